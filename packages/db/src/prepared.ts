// The few statements that run on every tool call or model request are sent as named prepared
// statements on the shared pool: each pooled connection parses and plans them once (planning
// the broker's five-table re-read costs several times executing it). Everything else goes
// through Prisma. A statement is a constant: its name and text never change at run time.
import type { Pool } from "./client.ts";

export interface PreparedStatement {
  /** Unique per text; the connection caches the plan under it. */
  name: string;
  text: string;
}

/** Runs a prepared statement; `Row` is the shape its SELECT list promises. */
export async function preparedQuery<Row>(
  pool: Pool,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  const result = await pool.query({ name: statement.name, text: statement.text, values });
  return result.rows as Row[];
}
