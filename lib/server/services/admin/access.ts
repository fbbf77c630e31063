import "server-only";
import type { Viewer } from "@/lib/server/auth/viewer";
import { ForbiddenError, ValidationError, zodIssues } from "@/lib/server/http/errors";
import { ADMIN_ERRORS } from "@/lib/validation/admin";
import type { z } from "zod";
import { requireViewer, type ServiceCtx } from "../context";

export const isStaff = (viewer: Pick<Viewer, "role"> | null | undefined) => viewer?.role === "ADMIN" || viewer?.role === "MODERATOR";

/** Every admin verb starts here: anonymous → 401, a regular user → 403; administrators and moderators pass. */
export function requireStaff(ctx: ServiceCtx): Viewer {
  const viewer = requireViewer(ctx);
  if (!isStaff(viewer)) throw new ForbiddenError(ADMIN_ERRORS.staffOnly);
  return viewer;
}

/** Granting and revoking roles: administrators only (anonymous → 401, everyone else → 403). */
export function requireAdmin(ctx: ServiceCtx): Viewer {
  const viewer = requireViewer(ctx);
  if (viewer.role !== "ADMIN") throw new ForbiddenError(isStaff(viewer) ? ADMIN_ERRORS.adminOnly : ADMIN_ERRORS.staffOnly);
  return viewer;
}

/** Parses admin input; a refusal is a 422 whose message is the first issue's. */
export function parseAdmin<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new ValidationError(issues[0]?.message ?? ADMIN_ERRORS.badQuery, issues);
}
