"use client";

import dynamic from "next/dynamic";
import styles from "./admin-ui.module.css";

/** Recharts is loaded only on the statistics page, in its own chunk, after the page has rendered (docs/adr/0080). */
export const LazyStatisticsChart = dynamic(() => import("./statistics-chart"), {
  ssr: false,
  loading: () => <div className={styles.chartLoading} aria-busy="true" />,
});
