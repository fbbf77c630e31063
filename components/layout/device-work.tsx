"use client";

import dynamic from "next/dynamic";

// The device's own work for the signed-in person, loaded after the page, not with it (the first-load guard,
// ADR 0158): the app icon's badge and sending the chat messages kept on the device (docs/adr/0179), which
// paint nothing; and the offline notice with the worker's word on a kept page (docs/adr/0178), which paints
// only offline (the worker keeps its answer until the page asks).
const Work = dynamic(() => import("./device-work-now").then((m) => m.DeviceWorkNow), { ssr: false });
const Status = dynamic(() => import("./device-status-now").then((m) => m.DeviceStatusNow), { ssr: false });

export function DeviceWork(props: { viewerId: number; unreadMessages: number; unreadNotifications?: number }) {
  return <Work {...props} />;
}

export function DeviceStatus() {
  return <Status />;
}
