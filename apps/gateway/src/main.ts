// Model gateway entry: validates configuration, proves the encryption key matches the stored
// data (P07: with a wrong key it serves only /healthz and a not-ready /readyz naming the key id
// the data needs), then serves the model gateway with its /readyz (database, migrations, key)
// and its metrics on METRICS_PORT. SIGTERM / SIGINT close gracefully: in-flight model requests
// finish and their budget settlements are written before the process exits.
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createGatewayMetrics, createGatewayServer } from "@secondshift/model-gateway";
import { createOutboundClient } from "@secondshift/netguard";
import {
  databaseChecks,
  fatal,
  keyCheck,
  onShutdown,
  openVerifiedDatabase,
  outboundPolicy,
  readyzRoute,
  createMetricsRegistry,
  serveMetrics,
} from "@secondshift/service";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "gateway", level: env.LOG_LEVEL, masker });
  const { db, pool, keyring } = await openVerifiedDatabase(env, { healthPort: env.PORT });
  // Every upstream connection passes the shared address check: public HTTPS only in
  // production, plus the private hosts / ranges the operator names (e.g. a local Ollama).
  const outbound = createOutboundClient(outboundPolicy(env));
  // An idle connection dropped by the server (restart, failover) is replaced on next use;
  // without a listener node-postgres would take the whole process down with it.
  pool.on("error", (err) => logger.warn({ err }, "an idle database connection closed"));
  const metrics = createMetricsRegistry("gateway");
  const gateway = createGatewayServer({
    metrics: createGatewayMetrics(metrics),
    db,
    pool,
    keyring,
    outbound,
    logger,
    masker,
    readyz: readyzRoute([...databaseChecks(pool), keyCheck(keyring)]),
    limits: {
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
      upstreamTimeoutMs: env.GATEWAY_UPSTREAM_TIMEOUT_MS,
      maxParallelPerRun: env.GATEWAY_MAX_PARALLEL_PER_RUN,
    },
    forwarding: {
      anthropicBetas: env.GATEWAY_ANTHROPIC_BETA,
      allowedProviderTools: env.GATEWAY_ALLOWED_PROVIDER_TOOLS,
    },
  });
  const port = await gateway.listen(env.PORT).catch(fatal);
  logger.info({ port }, "gateway listening");
  const metricsServer = await serveMetrics(env.METRICS_PORT, metrics).catch(fatal);

  onShutdown(logger, async () => {
    // In-flight model requests finish and their budget settlements are written first.
    await Promise.all([gateway.close(30_000), metricsServer?.close()]);
    await Promise.all([outbound.close(), db.$disconnect()]); // $disconnect ends the pool too
  });
}

void main();
