// Enforces that this package is the only code that changes Run.status: every TypeScript source
// of the repository is scanned for a status write outside it, and so is every SQL function the
// migrations leave in the database. Tests and test helpers may write a status directly to set
// up a scenario.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const SKIP_DIRS = new Set([
  "node_modules",
  "generated",
  ".next",
  "dist",
  ".git",
  "testing",
  "test",
]);
const OWNER = "packages/run-lifecycle/src/";

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* sources(join(dir, entry.name));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
      yield join(dir, entry.name);
    }
  }
}

/** Prisma: run.update / updateMany / upsert whose data sets `status`. */
const PRISMA_WRITE =
  /\.run\s*\.\s*(?:update|updateMany|upsert)\s*\(\s*\{(?:(?!\}\s*\)\s*;)[\s\S]){0,800}?\b(?:data|update)\s*:\s*\{[^}]*\bstatus\s*:/;
/** SQL: UPDATE "Run" … SET … status = …, looking only at the SET list (before WHERE). */
const SQL_WRITE =
  /UPDATE\s+"Run"(?:\s+(?:AS\s+)?\w+)?\s+SET\b((?:(?!\bWHERE\b|\bFROM\b|\bRETURNING\b)[\s\S]){0,2000})/gi;

export function writesRunStatus(text: string): boolean {
  if (PRISMA_WRITE.test(text)) return true;
  for (const match of text.matchAll(SQL_WRITE)) {
    if (/(?:^|[\s,.])"?status"?\s*=/i.test(match[1] ?? "")) return true;
  }
  return false;
}

describe("Run.status is written only by the lifecycle module", () => {
  it("the detector finds each way of writing the status", () => {
    expect(
      writesRunStatus(`db.run.updateMany({ where: { id }, data: { status: "FAILED" } })`),
    ).toBe(true);
    expect(
      writesRunStatus(`tx.run.update({ where: { id: run.id }, data: { error: m, status: "X" } });`),
    ).toBe(true);
    expect(writesRunStatus(`UPDATE "Run" SET status = 'FAILED' WHERE id = $1`)).toBe(true);
    expect(
      writesRunStatus(
        `UPDATE "Run" r SET "tokensUsed" = 1, "status" = CASE WHEN x THEN 'A' END WHERE`,
      ),
    ).toBe(true);
    expect(writesRunStatus(`UPDATE "Run" SET "heartbeatAt" = now() WHERE status = 'RUNNING'`)).toBe(
      false,
    );
    expect(
      writesRunStatus(
        `db.run.updateMany({ where: { status: "RUNNING" }, data: { heartbeatAt: now } })`,
      ),
    ).toBe(false);
  });

  it("no other source file writes it", () => {
    const offenders: string[] = [];
    for (const top of ["apps", "packages", "e2e"]) {
      for (const file of sources(join(root, top))) {
        const path = relative(root, file);
        if (path.startsWith(OWNER)) continue;
        if (writesRunStatus(readFileSync(file, "utf8"))) offenders.push(path);
      }
    }
    expect(offenders).toEqual([]);
  });

  dbTest("no SQL function or trigger of the migrated database writes it", async ({ db }) => {
    const functions = await db.$queryRaw<Array<{ name: string; body: string }>>`
      SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p
      JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`;
    expect(functions.filter((f) => writesRunStatus(f.body)).map((f) => f.name)).toEqual([]);
  });
});
