// What the entry point (main.ts) or a test hands the platform: open connections, not settings.
import type { SqlPool } from "@secondshift/broker";
import type { Db } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import type Docker from "dockerode";

export interface WorkerServices {
  db: Db;
  logger: Logger;
  masker: SecretMasker;
  /** The Docker engine; without it, one is built from settings.dockerHost. */
  docker?: Docker;
  /** A pg pool on the same database for the broker's per-call queries (faster than Prisma). */
  pool?: SqlPool;
}
