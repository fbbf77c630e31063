import type { Db } from "@/db/client";
import { touchPresence } from "@/lib/server/services/accounts/presence";
import type { Logger } from "./hub";

/**
 * Keeps accounts.last_online_time fresh for the accounts connected to this sidecar: on the first
 * socket, at most once per `intervalMs` while connected, and once more when the last socket closes.
 * Only throttling timestamps live here; "online" itself is read from the database by everyone.
 */
export class PresenceTracker {
  private readonly lastTouch = new Map<number, number>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  connected(accountId: number, firstSocket: boolean): void {
    if (firstSocket) this.touch(accountId);
  }

  disconnected(accountId: number, lastSocket: boolean): void {
    if (!lastSocket) return;
    this.touch(accountId);
    this.lastTouch.delete(accountId);
  }

  /** Called often (a fraction of the interval); touches each connected account whose touch is due. */
  tick(connectedAccountIds: number[], now = Date.now()): void {
    for (const accountId of connectedAccountIds) {
      const last = this.lastTouch.get(accountId) ?? 0;
      if (now - last >= this.intervalMs) this.touch(accountId, now);
    }
  }

  private touch(accountId: number, now = Date.now()): void {
    this.lastTouch.set(accountId, now);
    const p = touchPresence(this.db, accountId)
      .catch((err) => this.log.warn({ err, accountId }, "presence update failed"))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Waits for the updates already started, so shutdown writes the final "last seen" before the pool closes. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
