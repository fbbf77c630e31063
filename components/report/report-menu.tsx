"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useState, type ComponentProps } from "react";
import { AlertIcon, MoreIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import type { ReportDialog as Dialog, ReportTarget } from "./report-dialog";

// The dialog (its six categories, comment and block option) loads when someone first asks to report, not
// with every card and comment of a page (docs/adr/0143).
const LoadedReportDialog = dynamic(() => import("./report-dialog").then((m) => m.ReportDialog), { ssr: false });

/** The report dialog, mounted from its first opening on (so it animates out and reopens at once). */
function ReportDialog(props: ComponentProps<typeof Dialog>) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  return wanted ? <LoadedReportDialog {...props} /> : null;
}

/** A ⋯ menu with «Пожаловаться» (someone else's post or chat message), opening the report dialog. */
export function ReportMenu({ target, triggerClassName, label }: { target: ReportTarget; triggerClassName: string; label: string }) {
  const t = useTranslations("report");
  const [open, setOpen] = useState(false);
  return (
    <>
      <LazyMenu trigger={{ className: triggerClassName, "aria-label": label, children: <MoreIcon size={18} />, "data-testid": `report-menu-${target.type}-${target.id}` }}>
        {(Menu) => (
          <Menu.Portal>
            <Menu.Content className={menu.content} align="end" sideOffset={4}>
              <Menu.Item className={menu.item} onSelect={() => setOpen(true)}>
                <AlertIcon size={18} />
                <span className={menu.itemText}>{t("action")}</span>
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        )}
      </LazyMenu>
      <ReportDialog target={target} open={open} onOpenChange={setOpen} />
    </>
  );
}

/** «Пожаловаться» as a plain button (a comment's actions, a profile), opening the report dialog. */
export function ReportButton({ target, className, withIcon = false }: { target: ReportTarget; className: string; withIcon?: boolean }) {
  const t = useTranslations("report");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} aria-haspopup="dialog" onClick={() => setOpen(true)} data-testid={`report-${target.type}-${target.id}`}>
        {withIcon ? <AlertIcon size={16} /> : null}
        {t("action")}
      </button>
      <ReportDialog target={target} open={open} onOpenChange={setOpen} canBlock={target.type !== "COMMENT"} />
    </>
  );
}
