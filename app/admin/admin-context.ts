import "server-only";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { currentViewer } from "@/components/layout/current-viewer";
import type { ServiceCtx } from "@/lib/server/services/context";
import { requestLocale } from "@/lib/i18n/request";

/**
 * The service context of an admin page render. Layouts and pages render concurrently, so a page cannot
 * rely on the layout's check having stopped a regular user: it sends them to "/" itself.
 */
export async function adminCtx(): Promise<ServiceCtx> {
  const current = await currentViewer();
  if (!current || current.summary.role === "USER") redirect("/");
  return { viewer: current.viewer, db: getDb(), requestId: "admin-page", locale: await requestLocale() };
}
