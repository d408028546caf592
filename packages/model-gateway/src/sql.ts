// The budget queries are plain parameterised SQL, run either through the Prisma client (the
// default) or straight through a node-postgres pool. The gateway's hot path is one query per
// request; over a pg pool it costs a fraction of what the Prisma raw-query layer adds, which
// matters for the gateway's sub-millisecond overhead target.
import { createHash } from "node:crypto";
import type { Db } from "@secondshift/db";

export type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

/** Anything with node-postgres' `query({ name, text, values })` (a pg.Pool). */
export interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export function prismaSql(db: Db): Sql {
  return <T>(text: string, values: unknown[]) => db.$queryRawUnsafe<T[]>(text, ...values);
}

/**
 * Every statement is sent as a named prepared statement: each pooled connection parses and
 * plans it once, and later calls only bind and execute (the planning of the admission CTE was
 * a large share of its cost). The texts are constants, so the set of names is small and fixed.
 */
export function pgSql(pool: PgQueryable): Sql {
  const names = new Map<string, string>();
  const nameFor = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `gw_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  return async <T>(text: string, values: unknown[]) =>
    (await pool.query({ name: nameFor(text), text, values })).rows as T[];
}
