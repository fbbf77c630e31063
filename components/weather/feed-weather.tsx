"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";

// The feed's side column exists only on wide screens (weather.module.css: the aside is hidden at 1100 px
// and below, where the feed links to /weather instead). The card, its code and its request are therefore
// loaded only where the column shows, after the page has hydrated (docs/adr/0124): a phone never
// downloads, runs or fetches it.
const WIDE = "(min-width: 1101px)";
const WeatherCard = dynamic(() => import("./weather-card").then((m) => m.WeatherCard), { ssr: false });

const subscribe = (change: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", change);
  return () => query.removeEventListener("change", change);
};

export function FeedWeather() {
  const wide = useSyncExternalStore(subscribe, () => window.matchMedia(WIDE).matches, () => false);
  return wide ? <WeatherCard more /> : null;
}
