// The driver adapter the schema engine runs on. Two fixes over a plain `new PrismaPg(url)`:
// - Connection settings are passed as separate fields, not a connection string: the adapter
//   opens the shadow database as `{ ...config, database }`, and pg lets a connection string win
//   over `database`, which would point the "shadow" work at the real database.
// - The shadow database is dropped after its pool is closed (WITH (FORCE)); the adapter drops it
//   while its own pool still holds a connection, which PostgreSQL refuses.
// - The engine's introspection reads pg_catalog columns of type "char" (OID 18), which the
//   adapter does not map; they are plain one-letter text, so they are reported as text.
// - The adapter runs a migration script by splitting it at every ";", which cuts function
//   bodies ($$ ... $$) apart; the whole script is sent as one simple query instead, which
//   PostgreSQL runs statement by statement in one implicit transaction.
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { parse } from "pg-connection-string";

const PG_CHAR = 18;
const PG_TEXT = 25;

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function charColumnsAsText<T>(result: T): T {
  for (const r of Array.isArray(result)
    ? (result as QueryResultLike[])
    : [result as QueryResultLike]) {
    for (const field of r?.fields ?? [])
      if (field.dataTypeID === PG_CHAR) field.dataTypeID = PG_TEXT;
  }
  return result;
}

class IntrospectionClient extends pg.Client {
  // pg's query has many overloads (promise, callback, submittable); wrap whichever is used.
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) =>
        (last as (e: unknown, r: unknown) => void)(err, res && charColumnsAsText(res));
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<unknown>).then(charColumnsAsText) as never;
    }
    return result as never;
  }
}

function poolConfig(databaseUrl: string): pg.PoolConfig {
  const parsed = parse(databaseUrl);
  return {
    host: parsed.host ?? undefined,
    port: parsed.port ? Number(parsed.port) : undefined,
    user: parsed.user ?? undefined,
    password: parsed.password ?? undefined,
    database: parsed.database ?? undefined,
    ssl: parsed.ssl as pg.PoolConfig["ssl"],
    max: 2,
    Client: IntrospectionClient,
  };
}

interface ScriptRunner {
  executeScript(script: string): Promise<void>;
}

function wholeScripts<T extends ScriptRunner>(adapter: T): T {
  const inner = adapter as unknown as {
    client: { query(text: string): Promise<unknown> };
    onError(error: unknown): never;
  };
  adapter.executeScript = async (script: string) => {
    try {
      await inner.client.query(script);
    } catch (error) {
      inner.onError(error);
    }
  };
  return adapter;
}

/** A migration-aware adapter factory for `databaseUrl` with a well-behaved shadow database. */
export function createMigrationAdapter(
  databaseUrl: string,
): SqlMigrationAwareDriverAdapterFactory & { closeAll(): Promise<void> } {
  const config = poolConfig(databaseUrl);
  const main = new PrismaPg(config);
  // The engine never closes its connections; an idle one keeps holding the migration advisory
  // lock, and the next migrate run would wait for it. closeAll() ends them.
  const opened: Array<{ dispose(): Promise<void> }> = [];
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    async connect() {
      const adapter = wholeScripts(await main.connect());
      opened.push(adapter);
      return adapter;
    },
    async closeAll() {
      await Promise.all(opened.splice(0).map((a) => a.dispose().catch(() => undefined)));
    },
    async connectToShadowDb() {
      const database = `secondshift_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client(config);
      await admin.connect();
      await admin.query(`CREATE DATABASE "${database}"`);
      await admin.end();
      const pool = new pg.Pool({ ...config, database });
      const shadow = new PrismaPg(pool);
      const adapter = wholeScripts(await shadow.connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await pool.end().catch(() => undefined);
        const cleanup = new pg.Client(config);
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await cleanup.end();
      };
      return adapter;
    },
  };
}
