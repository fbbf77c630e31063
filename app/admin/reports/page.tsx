import { getTranslations } from "next-intl/server";
import { Pager, plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import { BlockButton } from "@/components/admin/admin-actions";
import { ReportActions } from "@/components/admin/report-actions";
import queue from "@/components/admin/reports-queue.module.css";
import { staffDates } from "@/components/admin/staff-dates";
import styles from "@/components/layout/admin.module.css";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";
import Link from "@/components/ui/link";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listReportGroups } from "@/lib/server/services/reports/queue";
import type { ReportGroupDto, ReportPerson, ReportSnapshot } from "@/lib/validation/reports-shared";
import { adminCtx } from "../admin-context";

export const generateMetadata = () => routeMetadata("AdminReports");

const nameOf = (p: Pick<ReportPerson, "firstName" | "lastName">) => `${p.firstName} ${p.lastName}`.trim();

/**
 * The moderation queue (issue 26 section 2): open reports grouped by target, newest or most-reported first,
 * each with the target as it was reported (the snapshot), the reporters and categories, the author's
 * history, and the three resolutions; the resolved ones on their own tab.
 */
export default async function AdminReportsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listReportGroups({ ctx, input }));
  const [t, routes, { dateTime }] = await Promise.all([getTranslations("reports"), getTranslations("routes"), staffDates()]);
  const status = params.status === "RESOLVED" ? "RESOLVED" : "OPEN";
  const sort = params.sort === "most" ? "most" : "newest";
  const tab = (label: string, query: Record<string, string>, current: boolean) => (
    <Link href={`/admin/reports?${new URLSearchParams(query)}`} className={queue.tab} aria-current={current ? "page" : undefined}>
      {label}
    </Link>
  );
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminReports")} />
      <p className={styles.lead}>{t("lead")}</p>
      <nav className={queue.tabs} aria-label={t("views")}>
        {tab(t("open"), { status: "OPEN", sort }, status === "OPEN")}
        {tab(t("resolved"), { status: "RESOLVED" }, status === "RESOLVED")}
        {status === "OPEN" ? (
          <>
            <span className={queue.meta}>·</span>
            {tab(t("newest"), { status: "OPEN", sort: "newest" }, sort === "newest")}
            {tab(t("most"), { status: "OPEN", sort: "most" }, sort === "most")}
          </>
        ) : null}
      </nav>
      {page.content.length === 0 ? (
        <EmptyState icon={<AlertIcon size={28} />} title={t(status === "OPEN" ? "emptyOpenTitle" : "emptyResolvedTitle")} text={t("emptyText")} />
      ) : (
        <ul className={queue.groups}>
          {page.content.map((g) => (
            <li key={g.id}>
              <Group g={g} t={t} format={(iso) => dateTime.format(new Date(iso))} />
            </li>
          ))}
        </ul>
      )}
      <Pager path="/admin/reports" params={params} page={page.number} totalPages={page.totalPages} />
    </Card>
  );
}

type T = Awaited<ReturnType<typeof getTranslations<"reports">>>;

function Group({ g, t, format }: { g: ReportGroupDto; t: T; format: (iso: string) => string }) {
  const author = g.author;
  return (
    <article className={queue.group} data-testid={`report-group-${g.id}`} aria-label={t("groupLabel", { type: t(`type${g.targetType}`), id: g.targetId })}>
      <div className={queue.groupHead}>
        <span className={`${styles.pill} ${styles.pillAccent}`}>{t(`type${g.targetType}`)}</span>
        <TargetLink g={g} t={t} />
        <span className={`${styles.pill} ${styles.pillDanger}`}>{t("reportsCount", { count: g.reportsCount })}</span>
        {g.categories.map((c) => (
          <span key={c.category} className={styles.pill}>
            {t(`categories.${c.category}`)}
            {c.count > 1 ? ` × ${c.count}` : ""}
          </span>
        ))}
        <span className={queue.meta}>{t("lastReported", { time: format(g.lastReportedAt) })}</span>
      </div>
      <Snapshot snapshot={g.snapshot} t={t} format={format} />
      {g.targetState.isDeleted || g.targetState.isBlocked ? (
        <p className={queue.meta}>{g.targetState.isDeleted ? t("targetDeleted") : t("targetBlocked")}</p>
      ) : null}
      {author ? (
        <p className={queue.meta} data-testid="report-author">
          {t(g.targetType === "COMMUNITY" ? "owner" : "author")}: <Link href={`/admin/users/${author.id}`}>{nameOf(author)}</Link>
          {author.isBlocked ? ` · ${author.blockedUntil ? t("blockedUntil", { time: format(author.blockedUntil) }) : t("blockedForGood")}` : ""}
          {" · "}
          {t("history", { reports: g.history.earlierReports, blocks: g.history.blocks })}
        </p>
      ) : null}
      <div>
        <h3 className={queue.meta}>{t("reporters")}</h3>
        <ul className={queue.reports}>
          {g.reports.map((r) => (
            <li key={r.id}>
              <Link href={`/admin/users/${r.reporter.id}`}>{nameOf(r.reporter)}</Link> — {t(`categories.${r.category}`)}
              <span className={queue.meta}> · {format(r.createdAt)}</span>
              {r.comment ? <p className={queue.meta}>«{r.comment}»</p> : null}
            </li>
          ))}
        </ul>
      </div>
      {g.resolution ? (
        <p className={queue.meta} data-testid="report-resolution">
          {t(`resolved${g.targetType === "COMMUNITY" && g.resolution.action === "BLOCK_CONTENT" ? "BLOCK_COMMUNITY" : g.resolution.action}`)} ·{" "}
          {g.resolution.moderator ? nameOf(g.resolution.moderator) : "—"} · {format(g.resolution.resolvedAt)}
          {g.resolution.reason ? ` · ${t("reasonShown", { reason: g.resolution.reason })}` : ""}
        </p>
      ) : null}
      {g.resolution && g.targetType === "COMMUNITY" && !g.targetState.isDeleted ? (
        // Issue 42: the staff's block of a community is lifted (or made) here, audited with its reason.
        <div className={queue.actions}>
          <BlockButton kind="communities" id={g.targetId} blocked={g.targetState.isBlocked} withLabel />
        </div>
      ) : null}
      {g.resolution ? null : (
        <ReportActions groupId={g.id} targetType={g.targetType} authorName={author ? nameOf(author) : null} />
      )}
    </article>
  );
}

function TargetLink({ g, t }: { g: ReportGroupDto; t: T }) {
  const s = g.snapshot;
  if (s.kind === "POST") return <Link href={`/admin/publications/${g.targetId}`}>{t("openPost", { id: g.targetId })}</Link>;
  if (s.kind === "COMMENT") return <Link href={`/admin/publications/${s.postId}`}>{t("openComment", { id: g.targetId })}</Link>;
  if (s.kind === "ACCOUNT") return <Link href={`/admin/users/${g.targetId}`}>{t("openAccount", { id: g.targetId })}</Link>;
  // A blocked community is absent to staff too; its page is linked while it is there.
  if (s.kind === "COMMUNITY") {
    return g.targetState.isBlocked || g.targetState.isDeleted ? (
      <span className={queue.meta}>{t("openCommunity", { id: g.targetId })}</span>
    ) : (
      <Link href={`/community/${g.targetId}`}>{t("openCommunity", { id: g.targetId })}</Link>
    );
  }
  return <span className={queue.meta}>{t("messageCopy")}</span>;
}

/**
 * Photos kept with a report (issue 40): copies served to staff only, whatever became of the originals. A
 * snapshot from before kept none of its own and shows the post's image where it still is.
 */
function Photos({ paths, t }: { paths: string[] | undefined; t: T }) {
  if (!paths?.length) return null;
  return (
    <div className={queue.photos} data-testid="report-photos">
      {paths.map((p, i) => (
        <a key={p} href={p} target="_blank" rel="noreferrer">
          {/* eslint-disable-next-line @next/next/no-img-element -- a staff-only file, never through the image optimiser */}
          <img src={p} alt={t("photoAlt", { n: i + 1, count: paths.length })} loading="lazy" />
        </a>
      ))}
    </div>
  );
}

/** The target as it was reported. A post's HTML is the sanitiser's output stored at report time. */
function Snapshot({ snapshot: s, t, format }: { snapshot: ReportSnapshot; t: T; format: (iso: string) => string }) {
  if (s.kind === "POST") {
    return (
      <div className={queue.snapshot} data-testid="report-snapshot">
        <p className={queue.meta}>
          {nameOf(s.author)} · {format(s.time)}
        </p>
        <h3>{s.title}</h3>
        <div dangerouslySetInnerHTML={{ __html: s.html }} />
        <Photos paths={s.images ?? (s.imagePath ? [s.imagePath] : [])} t={t} />
      </div>
    );
  }
  if (s.kind === "COMMENT") {
    return (
      <div className={queue.snapshot} data-testid="report-snapshot">
        <p className={queue.meta}>
          {nameOf(s.author)} · {format(s.time)}
        </p>
        <p className={queue.pre}>{s.text}</p>
      </div>
    );
  }
  if (s.kind === "COMMUNITY") {
    return (
      <div className={queue.snapshot} data-testid="report-snapshot">
        <p className={queue.meta}>
          {t(`communityType.${s.type}`)} · {t("communityMembers", { count: s.membersCount })}
        </p>
        <h3>{s.name}</h3>
        <Photos paths={s.images} t={t} />
        {s.description ? <p className={queue.pre}>{s.description}</p> : <p className={queue.meta}>{t("noDescription")}</p>}
      </div>
    );
  }
  if (s.kind === "ACCOUNT") {
    return (
      <div className={queue.snapshot} data-testid="report-snapshot">
        <h3>{nameOf(s.person)}</h3>
        <Photos paths={s.images} t={t} />
        {s.about ? <p className={queue.pre}>{s.about}</p> : <p className={queue.meta}>{t("noAbout")}</p>}
      </div>
    );
  }
  const people = new Map(s.people.map((p) => [p.id, nameOf(p)]));
  return (
    <div className={queue.snapshot} data-testid="report-snapshot">
      <p className={queue.meta}>{t("messageNote")}</p>
      <ol className={queue.messages}>
        {s.messages.map((m) => (
          <li key={m.id} className={m.reported ? `${queue.message} ${queue.reported}` : queue.message} data-reported={m.reported || undefined}>
            <span className={queue.meta}>
              {people.get(m.authorId) ?? "—"} · {format(m.time)}
              {m.reported ? ` · ${t("reportedMessage")}` : ""}
            </span>
            {m.text ? <p className={queue.pre}>{m.text}</p> : null}
            {m.images?.length ? (
              <Photos paths={m.images} t={t} />
            ) : m.imageCount ? (
              <p className={queue.meta}>{t(m.reported ? "photosGone" : "photosNotKept", { count: m.imageCount })}</p>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
