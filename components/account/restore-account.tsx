"use client";

import dynamic from "next/dynamic";

/**
 * The restore button of the deleted-account screen, rendered by the server as before; its code (the form
 * alert, the request) loads only on the pages that show it, not with every page of the main layout, which
 * imports the screen for the few deleted accounts (docs/adr/0151).
 */
export const RestoreAccount = dynamic(() => import("./restore-account-button").then((m) => m.RestoreAccountButton));
