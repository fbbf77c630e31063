import type { AccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import type { ShellViewer } from "./shell-viewer";

/** Only these fields cross to the browser. */
export function toShellViewer(s: AccountSummary): ShellViewer {
  return { id: s.id, firstName: s.firstName, lastName: s.lastName, photo: s.photo, isDeleted: s.isDeleted, role: s.role };
}
