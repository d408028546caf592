// A timestamped signature stays valid for the whole tolerance window, so a captured request
// could be replayed within those minutes. The guard remembers every accepted delivery in the
// database for twice that window and refuses a second use: on every web process, and after a
// restart (P08). Expired entries are pruned as new ones arrive.
import type { Db } from "@secondshift/db";

export interface ReplayGuard {
  /** True the first time `key` is seen within its window; false on any later use. */
  firstUse(delivery: { key: string; workspaceId: string }, now?: Date): Promise<boolean>;
}

export function createReplayGuard(db: Db, options: { windowSeconds: number }): ReplayGuard {
  const keepMs = 2 * options.windowSeconds * 1000;
  return {
    async firstUse({ key, workspaceId }, now = new Date()) {
      // One statement decides: a new key is inserted, an expired one renewed, a live one kept
      // (no row returned). Concurrent first uses of one key: exactly one insert wins.
      const accepted = await db.$queryRaw<Array<{ key: string }>>`
        INSERT INTO "InboundDelivery" ("key", "workspaceId", "expiresAt")
        VALUES (${key}, ${workspaceId}, ${new Date(now.getTime() + keepMs)})
        ON CONFLICT ("key") DO UPDATE SET "expiresAt" = EXCLUDED."expiresAt"
        WHERE "InboundDelivery"."expiresAt" <= ${now}
        RETURNING "key"`;
      if (accepted.length === 0) return false;
      await db.inboundDelivery.deleteMany({ where: { expiresAt: { lte: now } } });
      return true;
    },
  };
}
