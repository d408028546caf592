// The real web process for browser tests: src/main.ts (API, health, webhooks and the BUILT
// Next app — run `npm run build -w @secondshift/web` first; the test pipeline does) on a free
// loopback port, against the test file's database (dbTest's `testDatabase`) and a Redis database
// of its own (claimRedisDatabase).
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createKeyring, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { createTestDatabase } from "@secondshift/db/testing";
import { freePort, startService } from "@secondshift/service/testing";
import { claimRedisDatabase } from "./redis-database.ts";

const MAIN = resolve(import.meta.dirname, "..", "main.ts");
/** The process's DNS in tests (fake-dns.mjs): only the names a test gives resolve. */
const FAKE_DNS = pathToFileURL(resolve(import.meta.dirname, "fake-dns.mjs")).href;

export interface WebApp {
  /** http://127.0.0.1:PORT — also the app's public URL (same-origin checks use it). */
  origin: string;
  db: Db;
  /** The process's keyring (same key), for tests that run a worker's step, e.g. deliverDue. */
  keyring: Keyring;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  close(): Promise<void>;
}

export interface WebAppOptions {
  /**
   * The database to serve: a test file's own, dbTest's `testDatabase` (its fixture drops it).
   * Without one (the bench), a fresh database of the app's own, dropped on close.
   */
  database?: { url: string; db: Db };
  /** Ask for the one-time setup token at /setup (default: not required). */
  setupTokenRequired?: boolean;
  /** More settings for the process, e.g. LOOPBACK_ALLOWED to reach a loopback MCP server. */
  env?: Record<string, string>;
  /**
   * Serve another harness's stack (the journey test's worker and gateway): its database (the
   * caller drops it), its encryption key (base64) and its Redis. Default: a fresh database,
   * key and Redis database of its own.
   */
  shared?: {
    database: { url: string; db: Db };
    encryptionKeyB64: string;
    redisUrl: string;
  };
  /** Shorthand for `env: LOOPBACK_ALLOWED`: the API's outbound calls may reach loopback fakes. */
  allowLoopbackOutbound?: boolean;
  /**
   * Host names the process may resolve (name → addresses), for the save-time URL check; any
   * other name does not resolve (tests use no real DNS). "localhost" is 127.0.0.1.
   */
  hosts?: Record<string, string[]>;
}

/**
 * Lets the web process's netguard reach plain-http loopback services (as an operator allows an
 * internal host): outside production mode, and with loopback allowed explicitly.
 */
export const LOOPBACK_ALLOWED = {
  SECONDSHIFT_ENV: "development",
  SECONDSHIFT_ALLOWED_PRIVATE_HOSTS: "localhost",
  SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: "127.0.0.0/8,::1/128",
};

async function waitForHealth(origin: string, output: () => string): Promise<void> {
  // Up to two minutes: on a loaded 2-core machine tsx compiling main.ts takes a while.
  for (let i = 0; i < 1200; i++) {
    const health = await fetch(`${origin}/healthz`).catch(() => undefined);
    if (health?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The web app did not become healthy:\n${output()}`);
}

export async function startWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  const { shared } = options;
  const given = shared?.database ?? options.database;
  const database = given ? { ...given, drop: () => Promise.resolve() } : await createTestDatabase();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const encryptionKey = shared ? Buffer.from(shared.encryptionKeyB64, "base64") : randomBytes(32);
  const redis = shared ? undefined : await claimRedisDatabase();
  const service = startService(MAIN, {
    DATABASE_URL: database.url,
    REDIS_URL: shared?.redisUrl ?? redis!.url,
    SECONDSHIFT_PUBLIC_URL: origin,
    SECONDSHIFT_ENCRYPTION_KEY: encryptionKey.toString("base64"),
    SECONDSHIFT_SETUP_TOKEN_REQUIRED: options.setupTokenRequired ? "true" : "false",
    PORT: String(port),
    NODE_OPTIONS: `--import ${FAKE_DNS}`,
    SECONDSHIFT_TEST_HOSTS: JSON.stringify(options.hosts ?? {}),
    // Development: plain http to the fakes (production allows public https only).
    ...(options.allowLoopbackOutbound ? LOOPBACK_ALLOWED : {}),
    LOG_LEVEL: "warn",
    ...options.env,
  });
  const exited = service.exited.then((code) => {
    throw new Error(`The web app exited (${code}):\n${service.output()}`);
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([waitForHealth(origin, () => service.output()), exited]);
  } catch (error) {
    service.child.kill("SIGKILL");
    await database.drop();
    await redis?.release();
    throw error;
  }
  return {
    origin,
    db: database.db,
    keyring: createKeyring(new Uint8Array(encryptionKey)),
    output: () => service.output(),
    close: async () => {
      service.child.kill("SIGTERM");
      await service.exited;
      await database.drop();
      await redis?.release();
    },
  };
}
