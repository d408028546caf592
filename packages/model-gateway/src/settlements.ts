// Settlements wait a moment for the run's next admission and are written with it, in one call
// (`tryReserve` with a settlement): an agent loop, or a client at a steady pace, sends its next
// request right after the last answer, and two statements on the same Run row per request
// would otherwise queue behind each other's row lock. A settlement nobody picks up is written
// on its own after `delayMs` (5 ms by default: long enough for a client that sends its next
// request at once, short enough that another gateway instance rarely sees the run busier).
// While it waits, its reservation stays counted, so the budget and the parallel limit stay
// safe for every gateway instance: a pending settlement can only make the run look busier
// than it is, for at most `delayMs`.
import { settle, type Charge, type Settlement } from "./budget.ts";
import type { Sql } from "./sql.ts";

interface Waiter {
  resolve(status: string | null): void;
  reject(error: unknown): void;
}

interface Pending {
  settlement: Settlement;
  waiters: Waiter[];
  timer: NodeJS.Timeout;
}

/** Settlements taken by an admission; it must report whether it wrote them. */
export interface SettlementBatch {
  settlement: Settlement;
  /** Written together with the admission. */
  written(): void;
  /** The admission failed before writing them: they are written on their own instead. */
  failed(): void;
}

export class SettlementQueue {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly sql: Sql,
    private readonly delayMs: number,
  ) {}

  /**
   * Queues a finished request's charge under its token. Resolves with the run's status once
   * written on its own, or with null when it was written with the run's next admission.
   */
  add(
    tokenKey: string,
    run: { runId: string; workspaceId: string },
    reserved: number,
    charge: Charge,
  ): Promise<string | null> {
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(tokenKey);
      if (entry === undefined) {
        entry = {
          settlement: {
            runId: run.runId,
            workspaceId: run.workspaceId,
            released: 0,
            charge: { input: 0, output: 0, cache: 0 },
            requests: 0,
          },
          waiters: [],
          timer: setTimeout(() => this.flush(tokenKey), this.delayMs),
        };
        this.pending.set(tokenKey, entry);
      }
      const s = entry.settlement;
      s.released += reserved;
      s.charge.input += charge.input;
      s.charge.output += charge.output;
      s.charge.cache += charge.cache;
      s.requests += 1;
      entry.waiters.push({ resolve, reject });
    });
  }

  /** Hands the token's pending settlements to an admission, which writes them with its own. */
  take(tokenKey: string): SettlementBatch | null {
    const entry = this.pending.get(tokenKey);
    if (entry === undefined) return null;
    this.pending.delete(tokenKey);
    clearTimeout(entry.timer);
    return {
      settlement: entry.settlement,
      written: () => {
        for (const w of entry.waiters) w.resolve(null);
      },
      failed: () => void this.write(entry),
    };
  }

  /** Writes everything pending now (graceful close; tests that read the Run row). */
  flushAll(): void {
    for (const key of [...this.pending.keys()]) this.flush(key);
  }

  private flush(tokenKey: string): void {
    const entry = this.pending.get(tokenKey);
    if (entry === undefined) return;
    this.pending.delete(tokenKey);
    clearTimeout(entry.timer);
    void this.write(entry);
  }

  private async write(entry: Pending): Promise<void> {
    try {
      const status = await settle(this.sql, entry.settlement);
      for (const w of entry.waiters) w.resolve(status);
    } catch (error) {
      for (const w of entry.waiters) w.reject(error);
    }
  }
}
