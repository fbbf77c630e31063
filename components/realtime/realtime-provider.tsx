"use client";
import { useEffect, useEffectEvent, type ReactNode } from "react";
import { holdRealtimeConnection } from "@/lib/client/socket";
import { useRealtimeStatus } from "@/lib/client/use-realtime";

type Props = {
  children?: ReactNode;
  /** When the session is over (the refresh was refused). Default: spec §8, go to the login page. */
  onSignedOut?: () => void;
};

/**
 * Opens the tab's realtime connection while mounted (in the signed-in layout, after the header) and
 * closes it on unmount. Components listen with useRealtimeEvent; they need not sit inside it.
 */
export function RealtimeProvider({ children, onSignedOut }: Props) {
  const status = useRealtimeStatus();
  useEffect(() => holdRealtimeConnection(), []);

  const signedOut = useEffectEvent(() => {
    if (onSignedOut) return onSignedOut();
    // A full page load on purpose: nothing of the ended session (SWR caches, handlers) survives it.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/login");
  });
  useEffect(() => {
    if (status === "signed-out") signedOut();
  }, [status]);

  return children ?? null;
}
