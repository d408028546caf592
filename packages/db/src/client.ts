// The Prisma client over node-postgres (no native query engine: Prisma 7's query compiler is
// wasm). Callers pass the URL; nothing here reads the environment.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = InstanceType<typeof PrismaClient>;

export interface CreateDbOptions {
  /** Pool size; small by default because every service and test file opens its own. */
  maxConnections?: number;
}

export function createDb(databaseUrl: string, options: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
  });
  return new PrismaClient({ adapter });
}
