// npm run bench:auth-flood -w @secondshift/web — the production web process (the BUILT app:
// run `npm run build -w @secondshift/web` first) under unauthenticated hostile traffic, against a
// throwaway PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL as for the tests). While
// CLIENTS clients each send, back to back for SECONDS, a POST of 100 batched
// auth.invitations.accept calls with well-formed unknown tokens (then, in a second phase, the
// same calls one at a time, then sign-ins with unknown emails), a prober times GET /healthz
// every 50 ms. Prints /healthz p50 / p95 / max for a quiet process and under each flood, and how
// the hostile requests were answered. Target: p95 ≤ 50 ms under the floods. Hashes: none for an
// unknown invitation token (refused before any argon2id hash, packages/accounts/src/
// invitations.ts); one per sign-in, until the rate limits answer 429 (two at a time at most).
import { randomUUID } from "node:crypto";
import { mintToken } from "@secondshift/crypto";
import { startWebApp } from "../src/testing/index.ts";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BATCH = 100;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};

type Hostile = { procedure: string; input: () => unknown };
const badAccept: Hostile = {
  procedure: "auth.invitations.accept",
  input: () => ({
    token: mintToken("invitation").token,
    name: "Mallory",
    password: "p".repeat(40),
  }),
};
// An unknown email costs a hash too (a dummy verify, so it takes as long as a wrong password).
const badSignIn: Hostile = {
  procedure: "auth.signIn",
  input: () => ({ email: `${randomUUID()}@example.test`, password: "x".repeat(20) }),
};

/** Sends hostile requests until the deadline; counts the answers by HTTP status. */
async function flood(
  origin: string,
  hostile: Hostile,
  calls: number,
  until: number,
  statuses: Map<number, number>,
) {
  const path = Array(calls).fill(hostile.procedure).join(",");
  while (Date.now() < until) {
    const body = JSON.stringify(
      Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { json: hostile.input() }])),
    );
    const res = await fetch(`${origin}/api/trpc/${path}?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body,
    }).catch(() => undefined);
    await res?.arrayBuffer();
    const status = res?.status ?? 0;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
}

/** /healthz every 50 ms until the deadline; each answer's latency in ms. */
async function probe(origin: string, until: number): Promise<number[]> {
  const samples: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    await fetch(`${origin}/healthz`).then((r) => r.arrayBuffer());
    samples.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
  return samples;
}

async function phase(origin: string, label: string, hostile: Hostile | null, calls = 1) {
  const until = Date.now() + SECONDS * 1000;
  const statuses = new Map<number, number>();
  const floods =
    hostile === null
      ? []
      : Array.from({ length: CLIENTS }, () => flood(origin, hostile, calls, until, statuses));
  const [samples] = await Promise.all([probe(origin, until), ...floods]);
  const fmt = (q: number) => `${quantile(samples, q).toFixed(1)} ms`;
  const answered = [...statuses].map(([s, n]) => `${n}× ${s}`).join(", ") || "—";
  console.log(
    `${label.padEnd(42)} /healthz p50 ${fmt(0.5)}  p95 ${fmt(0.95)}  max ${fmt(1)}   hostile: ${answered}`,
  );
  return quantile(samples, 0.95);
}

const app = await startWebApp();
try {
  console.log(`${CLIENTS} clients, ${SECONDS} s per phase, batches of ${BATCH} calls`);
  await phase(app.origin, "quiet", null);
  const worst = Math.max(
    await phase(app.origin, `flood: ${BATCH}-call batches of bad accepts`, badAccept, BATCH),
    await phase(app.origin, "flood: the same accepts one at a time", badAccept),
    await phase(app.origin, "flood: sign-ins with unknown emails", badSignIn),
  );
  console.log(`target p95 ≤ 50 ms under the floods: ${worst <= 50 ? "met" : "NOT met"}`);
} finally {
  await app.close();
}
