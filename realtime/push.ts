import type { Db } from "@/db/client";
import { dispatchPushes } from "@/lib/server/services/push/dispatch";
import type { Logger } from "./hub";

/** How often the dispatcher looks at the outbox even when this sidecar fanned nothing out (another sidecar's leftovers). */
export const PUSH_SWEEP_MS = 5_000;

/**
 * Runs the push dispatcher (lib/server/services/push/dispatch.ts) after each drain that fanned events out,
 * one run at a time; a request during a run makes it go round once more. The accounts with a socket on
 * this sidecar are left out: their open tab shows the event already (docs/adr/0121).
 */
export class PushRelay {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly liveAccountIds: () => number[],
  ) {
    this.timer = setInterval(() => this.request(), PUSH_SWEEP_MS);
    this.timer.unref();
  }

  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        await dispatchPushes(this.db, this.liveAccountIds());
      } catch (err) {
        this.log.warn({ err }, "push dispatch failed");
        return;
      }
    } while (this.again && !this.stopped);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
