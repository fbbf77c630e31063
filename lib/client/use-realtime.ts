"use client";
import { useEffect, useEffectEvent, useSyncExternalStore } from "react";
import type { RealtimeEvent, RealtimeStatus } from "./realtime-core";
import { getRealtimeClient } from "./socket";

/**
 * Calls `handler` for every realtime event of `type` ("MESSAGE", "NOTIFICATION", … or "*") while the
 * component is mounted. The handler may change on every render; the subscription does not.
 */
export function useRealtimeEvent(type: string, handler: (event: RealtimeEvent) => void): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => getRealtimeClient().subscribe(type, (event) => onEvent(event)), [type]);
}

const subscribeStatus = (listener: () => void) => getRealtimeClient().onStatus(listener);
const readStatus = () => getRealtimeClient().getStatus();
const serverStatus = (): RealtimeStatus => "idle";

/** The tab's connection status: idle, connecting, open, reconnecting or signed-out. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, readStatus, serverStatus);
}
