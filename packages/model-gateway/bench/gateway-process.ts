// The SecondShift gateway in its own process (one Node process = one core), wired as in
// apps/gateway but with a loopback-only netguard policy for the scripted provider.
import { createKeyring, decodeKey } from "@secondshift/crypto";
import { createDb } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import pg from "pg";
import { createGatewayServer } from "../src/index.ts";

const masker = new SecretMasker();
const gateway = createGatewayServer({
  db: createDb(process.env.BENCH_DATABASE_URL!, { maxConnections: 16 }),
  pool: new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL!, max: 16 }),
  keyring: createKeyring(decodeKey(process.env.BENCH_KEY!, "BENCH_KEY")),
  outbound: createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.1/32"],
  }),
  // As in production: one info line per request (LOG_LEVEL's default) on stdout, which the
  // bench points at a file, the way a container's log driver takes it.
  logger: createLogger({ name: "gateway", level: process.env.BENCH_LOG_LEVEL ?? "info", masker }),
  masker,
  limits: { maxBodyBytes: 10 * 1024 * 1024, upstreamTimeoutMs: 600_000, maxParallelPerRun: 64 },
});
const port = await gateway.listen(0, "127.0.0.1");
// The URL goes to stderr: stdout carries the log.
console.error(`http://127.0.0.1:${port}`);
// A clean exit on SIGINT lets `--cpu-prof` write its profile (bench/profile.ts).
process.once("SIGINT", () => process.exit(0));
