// The budget queries are plain parameterised SQL, run either through the Prisma client (the
// default) or straight through a node-postgres pool. The gateway's hot path is one query per
// request; over a pg pool it costs a fraction of what the Prisma raw-query layer adds, which
// matters for the gateway's sub-millisecond overhead target.
import type { Db } from "@secondshift/db";

export type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

/** Anything with node-postgres' `query(text, values)` (a pg.Pool). */
export interface PgQueryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

export function prismaSql(db: Db): Sql {
  return <T>(text: string, values: unknown[]) => db.$queryRawUnsafe<T[]>(text, ...values);
}

export function pgSql(pool: PgQueryable): Sql {
  return async <T>(text: string, values: unknown[]) => (await pool.query(text, values)).rows as T[];
}
