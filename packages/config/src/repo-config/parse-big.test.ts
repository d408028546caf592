// Large and hostile `.secondshift.yaml` files: capped errors, keys that collide once read, nesting
// and alias limits. Timing figures come from `npm run bench` (bench/parse-big.ts); the one timed
// test here only guards against the quadratic behaviour coming back.
import { describe, expect, it } from "vitest";
import {
  brokenNesting,
  deepFlow,
  manyConvertedDuplicates,
  manyJobsWithErrors,
  manyKeysInOneMap,
  validBigConfig,
} from "../../bench/big-config.ts";
import { parseRepoConfig } from "./parse.ts";
import type { RepoConfigLimits } from "./types.ts";

const limits: RepoConfigLimits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};

const errorsOf = (text: string) => {
  const result = parseRepoConfig(text, { limits });
  if (result.ok) throw new Error("expected the file to be refused");
  return result.errors;
};

const job = "    name: x\n    prompt: y\n";

describe("parseRepoConfig: keys that become the same key once read", () => {
  // [first key, second key, the error's path (the key both become)]
  const pairs: Array<[string, string, string]> = [
    ["1", '"1"', 'jobs["1"]'],
    ["'1'", "1", 'jobs["1"]'],
    ["1.0", "1", 'jobs["1"]'],
    ["0x1", "1", 'jobs["1"]'],
    ["true", '"true"', "jobs.true"],
    ["null", '"null"', "jobs.null"],
    ["~", "null", "jobs.null"],
  ];

  it.each(pairs)("[C01] %s and %s in the jobs map are refused, naming both lines", (a, b, path) => {
    const text = `version: 1\njobs:\n  ${a}:\n${job}  ${b}:\n${job}`;
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 6, path });
    expect(errors[0]?.message).toContain("Map keys must be unique");
    expect(errors[0]?.message).toContain("(lines 3 and 6)");
  });

  it("[C01] a repeated tool group inside a job is refused too, never last-wins", () => {
    const text =
      `version: 1\njobs:\n  a:\n${job}    tools:\n` +
      `      github: { required: false, tools: [list_commits] }\n` +
      `      "github": { required: true, tools: [get_commit] }\n`;
    const errors = errorsOf(text);
    expect(errors.map((e) => [e.line, e.path])).toEqual([[8, "jobs.a.tools.github"]]);
    expect(errors[0]?.message).toContain("(lines 7 and 8)");
  });

  it("[C01] thousands of colliding keys: one error each, capped at 50", () => {
    const errors = errorsOf(manyConvertedDuplicates());
    expect(errors).toHaveLength(51);
    expect(errors[0]?.message).toMatch(/^Map keys must be unique: 0 and "0" .*\(lines 7 and 8\)/);
    expect(errors[50]?.message).toMatch(/^and \d+ more errors from this line on/);
  });

  it("[C01] a key that is a list, a map or an alias is refused", () => {
    const text = `version: 1\njobs:\n  a:\n${job}    ? [x]\n    : 1\n    &k b: 2\n    *k : 3\n`;
    const errors = errorsOf(text);
    expect(errors.map((e) => e.line)).toEqual([6, 9]);
    expect(errors[0]?.message).toContain("a key must be a plain name");
  });
});

describe("parseRepoConfig: error cap", () => {
  it("lists the first 50 errors by line, then one entry counting the rest", () => {
    const keys = Array.from({ length: 120 }, (_, i) => `    k${i}: v\n`).join("");
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}${keys}`);
    expect(errors).toHaveLength(51);
    expect(errors.slice(0, 50).map((e) => e.path)).toEqual(
      Array.from({ length: 50 }, (_, i) => `jobs.a.k${i}`),
    );
    expect(errors[50]).toMatchObject({ line: 56, path: "" });
    expect(errors[50]?.message).toMatch(/^and 70 more errors from this line on/);
  });

  it("exactly 50 errors are all listed, with no extra entry", () => {
    const keys = Array.from({ length: 50 }, (_, i) => `    k${i}: v\n`).join("");
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}${keys}`);
    expect(errors).toHaveLength(50);
    expect(errors.every((e) => e.message.startsWith("unknown key"))).toBe(true);
  });

  it("a 256 KiB file with thousands of jobs and errors of every kind: the first 50 and a count", () => {
    const errors = errorsOf(manyJobsWithErrors());
    expect(errors).toHaveLength(51);
    expect(errors[0]?.message).toContain("must NOT have more than 50 properties");
    expect(errors.some((e) => e.message.includes("not a valid cron expression"))).toBe(true);
    expect(errors.some((e) => e.message.includes("may only request access"))).toBe(true);
    expect(errors[50]?.message).toMatch(/^and \d+ more errors/);
  });

  it("a valid 256 KiB file (50 jobs, hundreds of tools each) parses", () => {
    const text = validBigConfig();
    expect(Buffer.byteLength(text)).toBeGreaterThan(200 * 1024);
    const result = parseRepoConfig(text, { limits });
    expect(result.ok && result.config.jobs).toHaveLength(50);
    expect(result.ok && result.config.jobs[0]?.tools).toHaveLength(22);
  });
});

describe("parseRepoConfig: long values in messages", () => {
  it("a 200 KB value or a 1,000-character key is shown cut, with its length, not echoed whole", () => {
    const long = "1,".repeat(100_000);
    const text = `version: 1\njobs:\n  a:\n${job}    schedule: "${long} * * * *"\n    ${"k".repeat(1000)}: 1\n`;
    const errors = errorsOf(text);
    expect(errors.length).toBeGreaterThanOrEqual(3); // too long, not a valid cron, unknown key
    for (const error of errors) expect(error.message.length + error.path.length).toBeLessThan(1500);
    expect(errors.some((e) => e.message.includes("(200008 characters)"))).toBe(true);
    expect(errors.some((e) => e.message.includes("(1000 characters)"))).toBe(true);
  });
});

describe("parseRepoConfig: nesting and aliases", () => {
  it("[C01] a quarter of a million [ is refused as too deep, not a stack overflow", () => {
    const errors = errorsOf(deepFlow());
    expect(errors.at(-1)?.message).toContain("nested more than 32 levels deep");
    expect(errors.some((e) => e.message.includes("call stack"))).toBe(false);
  });

  it("thousands of broken lines: reading stops at the first, which is named", () => {
    const errors = errorsOf(brokenNesting());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 3, column: 11 });
    expect(errors[0]?.message).toMatch(/^YAML syntax error: /);
  });

  it("[C01] aliases that multiply the data are refused before it is built", () => {
    const levels = Array.from({ length: 20 }, (_, i) =>
      i === 0 ? `      l0: &l0 [x, x]\n` : `      l${i}: &l${i} [*l${i - 1}, *l${i - 1}]\n`,
    ).join("");
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}    k:\n${levels}`);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("expand the file to more than 200000 values");
  });

  it("[C01] an alias inside the node it names is refused (no circular data)", () => {
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}    k: &loop [a, *loop]\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 6 });
    expect(errors[0]?.message).toContain("the alias *loop is inside the node it refers to");
  });

  it("[C01] a tagged key is refused like an alias key", () => {
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}    !!str name: z\n`);
    expect(errors.map((e) => e.line)).toEqual([6]);
    expect(errors[0]?.message).toContain("a tagged value (!tag)");
  });

  it("more than 100 aliases are refused before the document is converted", () => {
    const anchors = Array.from({ length: 101 }, (_, i) => `      a${i}: &x${i} v\n`).join("");
    const aliases = Array.from({ length: 101 }, (_, i) => `      - *x${i}\n`).join("");
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}    k:\n${anchors}    l:\n${aliases}`);
    expect(errors.map((e) => e.message)).toEqual([
      "the file uses 101 aliases (*name); at most 100 are allowed",
    ]);
  });

  it("a second YAML document is refused", () => {
    const errors = errorsOf(`version: 1\njobs:\n  a:\n${job}---\nversion: 1\n`);
    expect(errors[0]?.message).toContain("second YAML document");
  });
});

describe("parseRepoConfig: regression guard against quadratic parsing (not a benchmark)", () => {
  // The target is 200 ms (see `npm run bench`); 5 s is 25× that, so a loaded CI machine passes,
  // while the quadratic key search this replaced took 15 s on the first shape.
  it.each([
    ["19,000 keys in one mapping", manyKeysInOneMap],
    ["9,000 keys colliding once read", manyConvertedDuplicates],
    ["a quarter of a million [", deepFlow],
  ])("[C01] %s: a 256 KiB file is answered in under 5 s", (_name, generate) => {
    const text = generate();
    parseRepoConfig(text, { limits }); // untimed: the first parse also compiles the parser's code
    const started = performance.now();
    const result = parseRepoConfig(text, { limits });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.ok).toBe(false);
  });
});
