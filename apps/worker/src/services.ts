// What the entry point (main.ts) or a test hands the platform: open connections, not settings.
import type { Db, Pool } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import type Docker from "dockerode";
import type { Registry } from "prom-client";

export interface WorkerServices {
  db: Db;
  logger: Logger;
  masker: SecretMasker;
  /** The Docker engine; without it, one is built from settings.dockerHost. */
  docker?: Docker;
  /** The pool `db` runs on (`createDatabase`): the broker's per-call statements are prepared on it. */
  pool: Pool;
  /** Where the worker's metrics are registered (createMetricsRegistry); none when absent. */
  metrics?: Registry;
}
