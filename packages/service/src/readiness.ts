// Readiness (`GET /readyz`): the named checks a service must pass before it takes work, each run
// with a short timeout, answered as `{ status, checks: [{ name, ok, message }] }` (503 when any
// fails). `/healthz` stays the cheaper "the process is alive" answer. Apps pass their checks;
// the checks every service shares (database, migrations, Redis, key) are built here.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Keyring } from "@secondshift/crypto";
import { LATEST_MIGRATION, type Pool } from "@secondshift/db";

export interface ReadinessCheck {
  name: string;
  /** Resolves with what was seen when the check passes; throws (with the cause) when it fails. */
  check(): Promise<string>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  message: string;
}

export interface ReadinessReport {
  status: "ready" | "not ready";
  checks: CheckResult[];
}

export interface Readiness {
  report(): Promise<ReadinessReport>;
}

const DEFAULT_TIMEOUT_MS = 2_000;

function withTimeout(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    ).unref();
  });
  return Promise.race([check.check(), timeout]).finally(() => clearTimeout(timer));
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  try {
    return { name: check.name, ok: true, message: await withTimeout(check, timeoutMs) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name: check.name, ok: false, message };
  }
}

/** Runs every check at once on each report; one slow dependency costs at most `timeoutMs`. */
export function createReadiness(
  checks: readonly ReadinessCheck[],
  options: { timeoutMs?: number } = {},
): Readiness {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async report() {
      const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
      return { status: results.every((r) => r.ok) ? "ready" : "not ready", checks: results };
    },
  };
}

/** Writes a report as the `/readyz` answer: 200 when ready, 503 naming the failed checks. */
export async function sendReadiness(readiness: Readiness, res: ServerResponse): Promise<void> {
  const report = await readiness.report();
  res
    .writeHead(report.status === "ready" ? 200 : 503, { "content-type": "application/json" })
    .end(JSON.stringify(report));
}

/** Answers `GET /readyz` and returns true; returns false for any other request. */
export function handleReadyz(
  readiness: Readiness,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (req.method !== "GET" || req.url !== "/readyz") return false;
  void sendReadiness(readiness, res);
  return true;
}

/** The `/readyz` route over these checks, for a server's request handler to try first. */
export function readyzRoute(
  checks: readonly ReadinessCheck[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const readiness = createReadiness(checks);
  return (req, res) => handleReadyz(readiness, req, res);
}

/** PostgreSQL answers, and the newest migration this build knows is applied. */
export function databaseChecks(pool: Pick<Pool, "query">): ReadinessCheck[] {
  return [
    {
      name: "database",
      async check() {
        await pool.query("SELECT 1").catch((error: unknown) => {
          throw new Error(`PostgreSQL does not answer: ${(error as Error).message}`);
        });
        return "PostgreSQL answers";
      },
    },
    {
      name: "migrations",
      async check() {
        const { rowCount } = await pool.query(
          `SELECT 1 FROM _prisma_migrations
            WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          [LATEST_MIGRATION],
        );
        if (!rowCount) {
          throw new Error(
            `Migration ${LATEST_MIGRATION} is not applied; run the migrate service (or npm run db:migrate).`,
          );
        }
        return `${LATEST_MIGRATION} applied`;
      },
    },
  ];
}

/** Redis answers PING (pass the client the service already uses). */
export function redisCheck(redis: { ping(): Promise<unknown> }): ReadinessCheck {
  return {
    name: "redis",
    async check() {
      await redis.ping().catch((error: unknown) => {
        throw new Error(`Redis does not answer: ${(error as Error).message}`);
      });
      return "Redis answers";
    },
  };
}

/** The key check passed at start (a service whose check failed never gets this far). */
export function keyCheck(keyring: Keyring): ReadinessCheck {
  const message = `the encryption key ${keyring.currentKeyId} matches the stored data`;
  return { name: "key", check: () => Promise.resolve(message) };
}

/** The report a service whose key check failed gives for as long as it runs (P07). */
export function keyMismatchReadiness(message: string): Readiness {
  return createReadiness([
    {
      name: "key",
      check: () => Promise.reject(new Error(message)),
    },
  ]);
}
