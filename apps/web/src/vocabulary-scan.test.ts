// The web app decides what to show with the vocabulary (`can(role, "operate")`, its status
// lists), never with its own copy: a role compared as a string, or a list of run statuses,
// would drift from what the API enforces and the database holds. The words files key their
// words by these literals, so only the list rules apply there; tests and fixtures seed them.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROLES, RUN_STATUSES } from "@secondshift/vocabulary";
import { expect, it } from "vitest";

const SRC = import.meta.dirname;
const WORDS_FILES = ["components/auth/roles.ts", "components/runs/status.ts"];
const SKIPPED = /(\.test\.ts$|^browser\/|^testing\/)/;

const QUOTE = "[\"'`]";
const literal = (words: readonly string[]) => `${QUOTE}(?:${words.join("|")})${QUOTE}`;
const ROLE = literal(ROLES);
const STATUS = literal(RUN_STATUSES);

/** `lists`: the rule is about a list, which not even a words file may hold. */
const RULES: Array<{ what: string; pattern: RegExp; lists?: true }> = [
  {
    what: "a role compared as a string (use can(role, permission))",
    pattern: new RegExp(`(?:[!=]==?|\\bcase)\\s*${ROLE}|${ROLE}\\s*[!=]==?`),
  },
  {
    what: "a list of roles (use ROLES or can)",
    pattern: new RegExp(`\\[\\s*${ROLE}`),
    lists: true,
  },
  {
    what: "a role taken by default (pass the member's role; can(undefined, …) is false)",
    pattern: new RegExp(`(?:\\?\\?|\\|\\|)\\s*${ROLE}`),
  },
  {
    what: "a list of run statuses (use RUN_STATUSES, ACTIVE_STATUSES or FINAL_STATUSES)",
    pattern: new RegExp(`\\[\\s*${STATUS}\\s*,\\s*${STATUS}`),
    lists: true,
  },
];

async function sourceFiles(): Promise<string[]> {
  const all = await readdir(SRC, { recursive: true });
  return all.filter((f) => /\.tsx?$/.test(f) && !SKIPPED.test(f)).sort();
}

/** Each rule's hits in one file, as "file:line: what". */
function findings(file: string, text: string): string[] {
  const found: string[] = [];
  const wordsFile = WORDS_FILES.includes(file);
  for (const { what, pattern, lists } of RULES) {
    if (wordsFile && !lists) continue;
    const global = new RegExp(pattern.source, "g");
    for (const match of text.matchAll(global)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push(`${file}:${line}: ${what}`);
    }
  }
  return found;
}

it("the words files the scan allows exist (a rename must not widen it)", async () => {
  const all = await readdir(SRC, { recursive: true });
  for (const file of WORDS_FILES) expect(all).toContain(file);
});

it("no role comparison outside the words files, and no role or run-status list at all", async () => {
  const files = await sourceFiles();
  expect(files.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const file of files) {
    found.push(...findings(file, await readFile(join(SRC, file), "utf8")));
  }
  expect(found).toEqual([]);
});
