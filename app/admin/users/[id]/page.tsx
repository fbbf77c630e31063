import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { BlockButton, RoleSelect } from "@/components/admin/admin-actions";
import { AuditTable } from "@/components/admin/audit-table";
import { staffDates } from "@/components/admin/staff-dates";
import ui from "@/components/admin/admin-ui.module.css";
import { UserStatus } from "@/components/admin/users-table";
import { Avatar } from "@/components/ui/avatar";
import { Card, CardHeader } from "@/components/ui/card";
import { getUserCard } from "@/lib/server/services/admin/users";
import { adminCtx } from "../../admin-context";
import styles from "@/components/layout/admin.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const routes = await getTranslations("routes");
  return { title: routes("adminTitle", { page: (await getTranslations("admin"))("userCard") }) };
}

/** A user's card for staff: the account, its counts, recent activity, the audit of actions on it, block and role. */
export default async function AdminUserCardPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await adminCtx();
  const { id } = await params;
  const card = await getUserCard({ ctx, input: { id } }).catch((err: { code?: string }) => {
    if (err.code === "not_found" || err.code === "validation_failed") notFound();
    throw err;
  });
  const t = await getTranslations("admin");
  const { date, dateTime } = await staffDates();
  const viewer = ctx.viewer!;
  const name = `${card.firstName} ${card.lastName}`;
  const canBlock = card.id !== viewer.id && card.role !== "ADMIN" && (card.role === "USER" || viewer.role === "ADMIN");
  const counts = [
    { label: t("countPosts"), value: card.counts.posts },
    { label: t("countComments"), value: card.counts.comments },
    { label: t("countReactions"), value: card.counts.reactions },
    { label: t("countFriends"), value: card.counts.friends },
  ];
  return (
    <Card>
      <CardHeader as="h1" title={t("userCard")} />
      <div className={ui.cardHead}>
        <Avatar id={card.id} firstName={card.firstName} lastName={card.lastName} photo={card.photo} size={64} alt="" />
        <div className={ui.cardHeadText}>
          <strong data-testid="card-name">{name}</strong>
          <span className={styles.muted}>{card.email}</span>
          <span className={styles.muted}>
            {t("registered", { date: date.format(new Date(card.createdAt)) })} ·{" "}
            {card.lastOnlineTime ? t("lastOnline", { date: dateTime.format(new Date(card.lastOnlineTime)) }) : t("neverOnline")}
          </span>
          <span>
            <UserStatus user={card} />{" "}
            <Link href={`/profile/${card.id}`} className={styles.muted}>
              {t("openProfile")}
            </Link>
          </span>
        </div>
        <div className={ui.filterButtons}>
          {viewer.role === "ADMIN" ? <RoleSelect id={card.id} role={card.role} name={name} disabled={card.id === viewer.id} /> : null}
          {canBlock ? <BlockButton kind="users" id={card.id} blocked={card.isBlocked} withLabel /> : null}
        </div>
      </div>
      <dl className={styles.tiles}>
        {counts.map((c) => (
          <div key={c.label} className={styles.tile}>
            <dt className={styles.tileLabel}>{c.label}</dt>
            <dd className={styles.tileValue}>{c.value}</dd>
          </div>
        ))}
      </dl>
      <div className={ui.cardGrid}>
        <section>
          <h2 className={ui.sectionTitle}>{t("recentPosts")}</h2>
          {card.recentPosts.length === 0 ? (
            <p className={styles.muted}>{t("noActivity")}</p>
          ) : (
            <ul className={ui.list}>
              {card.recentPosts.map((p) => (
                <li key={p.id}>
                  {p.title} <span className={styles.muted}>· {date.format(new Date(p.time))}</span>{" "}
                  {p.isBlocked ? <span className={`${styles.pill} ${styles.pillDanger}`}>{t("blockedMark")}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section>
          <h2 className={ui.sectionTitle}>{t("recentComments")}</h2>
          {card.recentComments.length === 0 ? (
            <p className={styles.muted}>{t("noActivity")}</p>
          ) : (
            <ul className={ui.list}>
              {card.recentComments.map((c) => (
                <li key={c.id}>
                  {c.commentText} <span className={styles.muted}>· {date.format(new Date(c.time))}</span>{" "}
                  {c.isBlocked ? <span className={`${styles.pill} ${styles.pillDanger}`}>{t("blockedMark")}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <h2 className={ui.sectionTitle} style={{ padding: "0 20px" }}>
        {t("auditTitle")}
      </h2>
      {card.audit.length === 0 ? <p className={styles.lead}>{t("noActivity")}</p> : <AuditTable entries={card.audit} />}
    </Card>
  );
}
