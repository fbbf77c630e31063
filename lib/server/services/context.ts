import "server-only";
import type { Db, Tx } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { UnauthorizedError } from "@/lib/server/http/errors";

/** What every service verb receives: who acts, the database, and the request id for logs. */
export type ServiceCtx = { viewer: Viewer | null; db: Db; requestId: string; ip?: string; tx?: Tx };

/** Runs `fn` in the caller's transaction when there is one, else in a new one. */
export function withTransaction<T>(ctx: ServiceCtx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.tx ? fn(ctx.tx) : ctx.db.transaction(fn);
}

export function requireViewer(ctx: ServiceCtx): Viewer {
  if (!ctx.viewer) throw new UnauthorizedError();
  return ctx.viewer;
}
