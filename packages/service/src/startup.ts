// What every service's entry point does the same way: stop with a readable reason on a
// configuration problem, open the database only after proving the encryption key is the one
// the data was written with (P07), derive the outbound policy from the operator's settings,
// and shut down once on SIGTERM / SIGINT.
import { createKeyring, CryptoError, type Keyring } from "@secondshift/crypto";
import { createDatabase, ensureKeyCheck, type Db, type Pool } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import type { OutboundPolicy } from "@secondshift/netguard";
import { startHealthServer } from "./health-server.ts";
import { keyMismatchReadiness } from "./readiness.ts";

/** Ends the process with the reason on stderr; configuration and key errors carry no secret. */
export function fatal(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

export interface DatabaseSettings {
  DATABASE_URL: string;
  SECONDSHIFT_ENCRYPTION_KEY: Uint8Array;
  SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: Uint8Array[];
}

/**
 * The database (Prisma and the pool it runs on) and keyring, after the key check.
 * `db.$disconnect()` ends the pool too.
 *
 * A wrong key (P07) never returns: the service starts nothing that could touch a credential,
 * prints why, and stays up answering only `/healthz` (200, alive) and `/readyz` (503, naming
 * the key id the data needs) on `healthPort`, so an orchestrator shows the cause instead of a
 * restart loop. Any other failure (database unreachable at start) ends the process.
 */
export async function openVerifiedDatabase(
  env: DatabaseSettings,
  options: { healthPort: number },
): Promise<{ db: Db; pool: Pool; keyring: Keyring }> {
  const { db, pool } = createDatabase(env.DATABASE_URL, { maxConnections: 20 });
  const keyring = createKeyring(
    env.SECONDSHIFT_ENCRYPTION_KEY,
    env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
  );
  try {
    await ensureKeyCheck(db, keyring);
  } catch (error) {
    if (!(error instanceof CryptoError && error.reason === "KEY_MISMATCH")) fatal(error);
    await db.$disconnect();
    return serveKeyMismatch(error.message, options.healthPort);
  }
  return { db, pool, keyring };
}

async function serveKeyMismatch(message: string, port: number): Promise<never> {
  console.error(message);
  const health = await startHealthServer(port, keyMismatchReadiness(message)).catch(fatal);
  console.error(`Not ready: only /healthz and /readyz are served on port ${health.port}.`);
  const exit = () => void health.close().then(() => process.exit(0));
  process.once("SIGTERM", exit);
  process.once("SIGINT", exit);
  return new Promise<never>(() => undefined);
}

export interface OutboundSettings {
  SECONDSHIFT_ENV: "production" | "development" | "test";
  SECONDSHIFT_ALLOWED_PRIVATE_HOSTS: string[];
  SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: string[];
  /** The operator's CA certificates (PEM), read from SECONDSHIFT_EXTRA_CA_CERTS at start. */
  SECONDSHIFT_EXTRA_CA_CERTS?: string[];
}

/** Public HTTPS only in production, plus the internal hosts / ranges the operator names. */
export function outboundPolicy(env: OutboundSettings): OutboundPolicy {
  const production = env.SECONDSHIFT_ENV === "production";
  return {
    production,
    allowHttp: !production,
    allowedPrivateHosts: env.SECONDSHIFT_ALLOWED_PRIVATE_HOSTS,
    allowedPrivateCidrs: env.SECONDSHIFT_ALLOWED_PRIVATE_CIDRS,
    trustedCaCerts: env.SECONDSHIFT_EXTRA_CA_CERTS ?? [],
  };
}

/** Runs `stop` once on the first SIGTERM / SIGINT, then exits 0 (or 1 if stopping failed). */
export function onShutdown(logger: Logger, stop: () => Promise<unknown>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down");
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
}
