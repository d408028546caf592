// Profiles the gateway under a short single-connection load: writes a .cpuprofile of the
// gateway process to $PROFILE_DIR and prints its hottest functions (self time).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createKeyring } from "@secondshift/crypto";
import { createTestDatabase } from "@secondshift/db/testing";
import { seedRun } from "../src/testing/fixtures.ts";

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.PROFILE_DIR ?? "/tmp/gateway-profile";
const urlPattern = /(http:\/\/127\.0\.0\.1:\d+)/;
// The gateway prints its URL on stderr and logs on stdout (pointed at a file, as in the bench).
const start = (args: string[], env: Record<string, string> = {}, stdoutFd?: number) => {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", stdoutFd ?? "pipe", "pipe"],
  });
  return {
    child,
    url: new Promise<string>((resolve) => {
      const onData = (c: Buffer) => {
        const m = urlPattern.exec(c.toString());
        if (m) resolve(m[1]!);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
    }),
  };
};
mkdirSync(dir, { recursive: true });
const tdb = await createTestDatabase();
const key = randomBytes(32);
const provider = start(["--import", "tsx", join(here, "provider-process.ts")]);
const providerUrl = await provider.url;
const run = await seedRun(tdb.db, createKeyring(new Uint8Array(key)), {
  kind: "OPENAI",
  baseUrl: providerUrl,
  providerKey: "sk-profile-000000",
  budget: 2_000_000_000,
});
const gateway = start(
  [
    "--cpu-prof",
    "--cpu-prof-interval=100",
    `--cpu-prof-dir=${dir}`,
    "--import",
    "tsx",
    join(here, "gateway-process.ts"),
  ],
  { BENCH_DATABASE_URL: tdb.url, BENCH_KEY: key.toString("base64") },
  openSync(join(dir, "gateway.log"), "w"),
);
const url = await gateway.url;
const body = JSON.stringify({
  model: "m",
  max_tokens: 64,
  messages: [{ role: "user", content: "hi" }],
});
const t0 = performance.now();
for (let i = 0; i < 3000; i++) {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${run.token}`, "content-type": "application/json" },
  });
  await r.arrayBuffer();
}
console.log(`3000 requests in ${(performance.now() - t0).toFixed(0)} ms`);
gateway.child.kill("SIGINT");
await new Promise((r) => gateway.child.on("exit", r));
provider.child.kill();
// tsx's loader thread writes a profile too; the main thread's is the largest.
const file = readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => ({ f, size: statSync(join(dir, f)).size }))
  .sort((a, b) => b.size - a.size)[0]!.f;
const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount: number;
  }>;
};
const self = new Map<string, number>();
for (const n of profile.nodes) {
  const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/work\/main\//, "")}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + n.hitCount);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${((100 * v) / total).toFixed(1)}%  ${k}`);
await tdb.drop();
