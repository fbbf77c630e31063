import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "@/lib/client/api";

/**
 * Puts a refused request's per-field issues under their fields. `rename` maps an API field to the
 * form's (e.g. the recovery API's `password` is the form's `password1`). Returns what is left for a
 * form-level alert: the server's message (already in the user's language) when no issue found a field,
 * or null when every issue did. Anything that is not an ApiError (network down) gives `fallback`.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string,
  rename: Partial<Record<string, Path<T>>> = {},
): string | null {
  if (!(err instanceof ApiError)) return fallback;
  let placed = 0;
  for (const issue of err.issues) {
    const name = rename[issue.path] ?? (issue.path as Path<T>);
    if (!fields.includes(name)) continue;
    setError(name, { type: "server", message: issue.message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  if (placed > 0) return null;
  return err.message || fallback;
}
