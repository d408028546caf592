// Model gateway entry: validates configuration, proves the encryption key matches the stored
// data (P07: a wrong key stops the service here, with the reason, before it serves anything),
// then serves the model gateway. SIGTERM / SIGINT close gracefully: in-flight model requests
// finish and their budget settlements are written before the process exits.
import { createKeyring } from "@secondshift/crypto";
import { createDb, ensureKeyCheck } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createGatewayServer } from "@secondshift/model-gateway";
import { createOutboundClient } from "@secondshift/netguard";
import pg from "pg";

function fatal(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "gateway", level: env.LOG_LEVEL, masker });
  const db = createDb(env.DATABASE_URL);
  const keyring = createKeyring(
    env.SECONDSHIFT_ENCRYPTION_KEY,
    env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
  );
  await ensureKeyCheck(db, keyring).catch(fatal);

  const production = env.SECONDSHIFT_ENV === "production";
  // Every upstream connection passes the shared address check: public HTTPS only in
  // production, plus the private hosts / ranges the operator names (e.g. a local Ollama).
  const outbound = createOutboundClient({
    production,
    allowHttp: !production,
    allowedPrivateHosts: env.SECONDSHIFT_ALLOWED_PRIVATE_HOSTS,
    allowedPrivateCidrs: env.SECONDSHIFT_ALLOWED_PRIVATE_CIDRS,
  });
  // The per-request budget query runs over a plain pg pool (lower overhead than Prisma's raw
  // query layer; the same database and user).
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 20 });
  const gateway = createGatewayServer({
    db,
    pool,
    keyring,
    outbound,
    logger,
    masker,
    limits: {
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
      upstreamTimeoutMs: env.GATEWAY_UPSTREAM_TIMEOUT_MS,
      maxParallelPerRun: env.GATEWAY_MAX_PARALLEL_PER_RUN,
    },
  });
  const port = await gateway.listen(env.PORT).catch(fatal);
  logger.info({ port }, "gateway listening");

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down: finishing in-flight model requests");
    void gateway
      .close(30_000)
      .then(() => Promise.all([outbound.close(), db.$disconnect(), pool.end()]))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

void main();
