import "server-only";
import type { Db, Tx } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { UnauthorizedError } from "@/lib/server/http/errors";
import type { Locale } from "@/lib/i18n/config";

/**
 * What every service verb receives: who acts, the database, the request id for logs, and the language
 * the answer is written in (places are titled in it; Russian when absent).
 */
export type ServiceCtx = { viewer: Viewer | null; db: Db; requestId: string; ip?: string; tx?: Tx; locale?: Locale };

/** Runs `fn` in the caller's transaction when there is one, else in a new one. */
export function withTransaction<T>(ctx: ServiceCtx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.tx ? fn(ctx.tx) : ctx.db.transaction(fn);
}

export function requireViewer(ctx: ServiceCtx): Viewer {
  if (!ctx.viewer) throw new UnauthorizedError();
  return ctx.viewer;
}
