// One database access style: a node-postgres pool per process and the Prisma client over it
// (no native query engine: Prisma 7's query compiler is wasm). Prisma serves every query; the
// few per-call statements of the hot paths (broker access re-read, gateway admission) go to the
// same pool as prepared statements (prepared.ts). Callers pass the URL; nothing here reads the
// environment.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = InstanceType<typeof PrismaClient>;
export type Pool = pg.Pool;

export interface CreateDbOptions {
  /** Pool size; small by default because every service and test file opens its own. */
  maxConnections?: number;
}

export interface Database {
  db: Db;
  /** The pool Prisma runs on, for prepared statements (`preparedQuery`). */
  pool: Pool;
  /** Disconnects Prisma and ends the pool. */
  close: () => Promise<void>;
}

export function createDatabase(databaseUrl: string, options: CreateDbOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
  });
  // `$disconnect` ends the pool too, so callers that only hold `db` still close everything.
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return {
    db,
    pool,
    close: async () => {
      await db.$disconnect();
      // Prisma ends the pool only if it ever connected.
      if (!pool.ended) await pool.end();
    },
  };
}

/** The Prisma client alone (its pool is closed by `$disconnect`). */
export function createDb(databaseUrl: string, options: CreateDbOptions = {}): Db {
  return createDatabase(databaseUrl, options).db;
}
