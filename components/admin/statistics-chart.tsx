"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StatisticsPoint } from "@/lib/validation/admin";

export type ChartLabels = { accounts: string; posts: string; comments: string; reactions: string; communities: string };

// Theme colours come from CSS variables, so the charts follow the light and dark themes.
const COLORS = {
  accounts: "var(--chart-1, #2a6fd1)",
  posts: "var(--chart-2, #3c9a3c)",
  comments: "var(--chart-3, #d98a1c)",
  reactions: "var(--chart-4, #c2408f)",
  communities: "var(--chart-5, #7a5bd6)",
} as const;

const axis = { stroke: "var(--text-3)", fontSize: 12 };
const tooltipStyle = { background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 8, color: "var(--text)" };

/**
 * The activity charts of the statistics page (docs/adr/0080: Recharts, loaded only here through
 * next/dynamic): new accounts as bars, posts, comments, reactions and communities as lines, over the chosen range.
 */
export default function StatisticsChart({ series, labels, locale }: { series: StatisticsPoint[]; labels: ChartLabels; locale: string }) {
  const format = (date: string) =>
    new Intl.DateTimeFormat(locale, date.length === 7 ? { month: "short", year: "2-digit", timeZone: "UTC" } : { day: "numeric", month: "short", timeZone: "UTC" }).format(
      new Date(date.length === 7 ? `${date}-01T00:00:00Z` : `${date}T00:00:00Z`),
    );
  return (
    <div data-testid="statistics-chart">
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="var(--border)" vertical={false} />
          <XAxis dataKey="date" tickFormatter={format} tick={axis} stroke="var(--border)" minTickGap={16} />
          <YAxis allowDecimals={false} tick={axis} stroke="var(--border)" />
          <Tooltip contentStyle={tooltipStyle} labelFormatter={(d) => format(String(d))} cursor={{ fill: "var(--surface-2)" }} />
          <Legend wrapperStyle={{ fontSize: 13, color: "var(--text-2)" }} />
          <Bar dataKey="accounts" name={labels.accounts} fill={COLORS.accounts} radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={series} margin={{ top: 16, right: 16, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="var(--border)" vertical={false} />
          <XAxis dataKey="date" tickFormatter={format} tick={axis} stroke="var(--border)" minTickGap={16} />
          <YAxis allowDecimals={false} tick={axis} stroke="var(--border)" />
          <Tooltip contentStyle={tooltipStyle} labelFormatter={(d) => format(String(d))} />
          <Legend wrapperStyle={{ fontSize: 13, color: "var(--text-2)" }} />
          {(["posts", "comments", "reactions", "communities"] as const).map((k) => (
            <Line key={k} type="monotone" dataKey={k} name={labels[k]} stroke={COLORS[k]} strokeWidth={2} dot={series.length <= 40} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
