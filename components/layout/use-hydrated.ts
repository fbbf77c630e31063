import { useSyncExternalStore } from "react";

const noop = () => () => {};

/** False during the server render and hydration, true after: for values only the browser knows (theme). */
export function useHydrated(): boolean {
  return useSyncExternalStore(noop, () => true, () => false);
}
