// The SecondShift gateway in its own process (one Node process = one core), wired as in
// apps/gateway but with a loopback-only netguard policy for the scripted provider.
import { createKeyring, decodeKey } from "@secondshift/crypto";
import { createDatabase } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import { createGatewayServer } from "../src/index.ts";

const masker = new SecretMasker();
const { db, pool } = createDatabase(process.env.BENCH_DATABASE_URL!, { maxConnections: 20 });
const gateway = createGatewayServer({
  db,
  pool,
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
