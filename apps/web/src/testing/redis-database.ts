// A Redis database of its own for one web process (index 1–15 of the test Redis, emptied
// first): the sign-in rate limits count per client address, and every browser here is
// 127.0.0.1 — shared counters would let one test file's sign-ins lock out the next. Suites run
// side by side (scripts/test-lanes.sh), so an index is claimed in database 0 (SET NX, expiring
// in case a test process dies) and released when the process ends; never picked at random.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

const INDEXES = Array.from({ length: 15 }, (_, i) => i + 1);
const CLAIM_MS = 30 * 60_000;
const claimKey = (index: number) => `secondshift-test:redis-db:${index}`;

export interface RedisDatabase {
  url: string;
  release(): Promise<void>;
}

export async function claimRedisDatabase(timeoutMs = 120_000): Promise<RedisDatabase> {
  const base = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  base.pathname = "/0";
  const admin = new Redis(base.toString(), { maxRetriesPerRequest: 1 });
  const owner = randomUUID();
  try {
    const index = await claimFreeIndex(admin, owner, Date.now() + timeoutMs);
    const url = new URL(base);
    url.pathname = `/${index}`;
    await admin.select(index);
    await admin.flushdb();
    return { url: url.toString(), release: () => releaseIndex(base.toString(), index, owner) };
  } finally {
    admin.disconnect();
  }
}

async function claimFreeIndex(admin: Redis, owner: string, deadline: number): Promise<number> {
  for (;;) {
    for (const index of INDEXES) {
      if ((await admin.set(claimKey(index), owner, "PX", CLAIM_MS, "NX")) === "OK") return index;
    }
    if (Date.now() > deadline) throw new Error("Every test Redis database (1–15) is claimed.");
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function releaseIndex(baseUrl: string, index: number, owner: string): Promise<void> {
  const admin = new Redis(baseUrl, { maxRetriesPerRequest: 1 });
  try {
    // Only our own claim: compare and delete in one step.
    await admin.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      claimKey(index),
      owner,
    );
  } finally {
    admin.disconnect();
  }
}
