// Drafts on the device (issue 44, docs/adr/0179): a post or a comment whose sending found no network is
// kept in IndexedDB `krug-drafts` with the account that wrote it and its clientId, and offered for sending
// where it was written. Sending it again carries the same clientId, so the server answers what the first
// send made: never two posts or comments.
import { deviceStore } from "./idb";

export type DraftKind = "post" | "comment";
export type Draft = {
  clientId: string;
  accountId: number;
  kind: DraftKind;
  /** Where it belongs: the post of a comment; a community's wall (or 0 for the person's own) for a post. */
  placeId: number;
  /** What the offer shows: a post's title, a comment's first words. */
  label: string;
  /** The request body as the form built it, clientId included. */
  body: Record<string, unknown>;
  savedAt: number;
};

const store = deviceStore<Draft>("krug-drafts", "clientId");

/** Keeps a draft, stamped now (a draft of the same clientId is replaced). */
export const keepDraft = (draft: Omit<Draft, "savedAt">) => store.put({ ...draft, savedAt: Date.now() });
export const dropDraft = (clientId: string) => store.delete(clientId);

/** The account's drafts of one kind and place, oldest first; another account's are dropped on the way. */
export async function draftsFor(accountId: number, kind: DraftKind, placeId: number): Promise<Draft[]> {
  const all = await store.all();
  const foreign = all.filter((d) => d.accountId !== accountId);
  await Promise.all(foreign.map((d) => store.delete(d.clientId)));
  return all.filter((d) => d.accountId === accountId && d.kind === kind && d.placeId === placeId).sort((a, b) => a.savedAt - b.savedAt);
}

/**
 * Whether a failed send means "no network" (keep a draft) rather than a refusal or a lost answer (say it, the
 * form keeps the words and a second tap sends the same clientId, spec section 9): no answer at all while the
 * browser itself says it is offline.
 */
export function isOffline(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  const browserOffline = typeof navigator !== "undefined" && navigator.onLine === false;
  return browserOffline && (typeof status !== "number" || status === 0);
}
