// C19: arguments must match the tool's schema — and checking them must not stall the worker,
// whatever the (outside) schema and the (model-written) arguments contain.
import { describe, expect, it } from "vitest";
import { compileArguments, MAX_SCHEMA_DEPTH, schemaDepth, validateArguments } from "./arguments.ts";
import { isToolCallError } from "./refusals.ts";

const limits = { maxStringLength: 20_000, maxArrayItems: 1_000 };
const evil = `${"a".repeat(10_000)}!`; // `^(a+)+$` backtracks 2^10000 ways on this in a JS RegExp

/** Runs `fn`, returns how long it took and what it threw (nothing when it returned). */
function timed(fn: () => unknown): { ms: number; error: unknown } {
  const started = performance.now();
  try {
    fn();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

const objectWith = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("argument patterns run on a linear-time engine", () => {
  // A backtracking engine does not answer these in any useful time (the test would hang until
  // its timeout); 2 s is a generous bound for a linear one (about 20 ms measured here).
  it("[C19] a catastrophic pattern against a 10,000-character argument is refused promptly", () => {
    const validate = compileArguments(
      objectWith({ q: { type: "string", pattern: "^(a+)+$" } }),
      "search",
    );
    const { ms, error } = timed(() => validateArguments(validate, { q: evil }, limits));
    expect(ms).toBeLessThan(2000);
    expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    expect((error as Error).message).toContain('/q must match pattern "^(a+)+$"');
    // the same pattern still accepts what it describes
    expect(validateArguments(validate, { q: "a".repeat(10_000) }, limits)).toEqual({
      q: "a".repeat(10_000),
    });
  });

  it("[C19] a catastrophic patternProperties / propertyNames pattern against a 10,000-character name is refused promptly", () => {
    const byPattern = compileArguments(
      objectWith({}, { patternProperties: { "^(a+)+$": { type: "string" } } }),
    );
    const byName = compileArguments({
      type: "object",
      propertyNames: { pattern: "^(a|aa)+$" },
      additionalProperties: true,
    });
    for (const validate of [byPattern, byName]) {
      const { ms, error } = timed(() => validateArguments(validate, { [evil]: "x" }, limits));
      expect(ms).toBeLessThan(2000);
      expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    }
    expect(validateArguments(byPattern, { aaa: "x" }, limits)).toEqual({ aaa: "x" });
  });

  it("[C19] each pattern of a schema is enforced as written (unicode classes included)", () => {
    const validate = compileArguments(
      objectWith({
        name: { type: "string", pattern: "^\\p{L}+$" },
        id: { type: "string", pattern: "^[0-9]{3}$" },
      }),
    );
    expect(validateArguments(validate, { name: "Zoë", id: "123" }, limits)).toBeTruthy();
    for (const bad of [
      { name: "Zoë1", id: "123" },
      { name: "Zoë", id: "12a" },
    ]) {
      const { error } = timed(() => validateArguments(validate, bad, limits));
      expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    }
  });

  it.each([
    ["a lookahead", "^(?=.*x)[a-z]+$"],
    ["a lookbehind", "(?<!x)y"],
    ["a backreference", "^(a)\\1$"],
  ])(
    "[C19] a schema whose pattern needs %s is refused at compile, naming the tool and why",
    (_what, pattern) => {
      const { error } = timed(() =>
        compileArguments(objectWith({ q: { type: "string", pattern } }), "lookup_user"),
      );
      expect(isToolCallError(error, "INVALID_SCHEMA")).toBe(true);
      const message = (error as Error).message;
      expect(message).toContain('tool "lookup_user"');
      expect(message).toContain(JSON.stringify(pattern));
      expect(message).toContain("RE2");
    },
  );
});

describe("uniqueItems is checked in linear time", () => {
  const validate = compileArguments(
    objectWith({ rows: { type: "array", uniqueItems: true } }),
    "import_rows",
  );
  const rows = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`k${k}`, k === 99 ? i : 0])),
    );

  // ajv compares every pair of object items: this took 6 s; 2 s is a generous bound.
  it("[C19] 1,000 distinct objects of 100 keys each are accepted promptly", () => {
    const args = { rows: rows(1000) };
    const { ms, error } = timed(() => validateArguments(validate, args, limits));
    expect(error).toBeUndefined();
    expect(ms).toBeLessThan(2000);
  });

  it("[C19] equal items are still refused, whatever their key order", () => {
    const [first, second] = [
      { a: 1, b: [1, { c: "x", d: null }] },
      { b: [1, { d: null, c: "x" }], a: 1 },
    ];
    const { error } = timed(() =>
      validateArguments(validate, { rows: [first, 2, second] }, limits),
    );
    expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    expect((error as Error).message).toContain("/rows must NOT have duplicate items");
    expect(
      validateArguments(validate, { rows: [first, { ...second, a: 2 }, [1], ["1"]] }, limits),
    ).toBeTruthy();
  });
});

describe("compiling the same schema again", () => {
  const withId = (pattern: string) => ({
    $id: "https://tools.example/search.json",
    type: "object",
    properties: {
      q: { $id: "https://tools.example/q.json", type: "string", pattern },
      again: { $ref: "https://tools.example/q.json" },
    },
  });

  it("[C19] a schema with $id compiles for every run, and each compile enforces it", () => {
    for (let run = 0; run < 3; run++) {
      const validate = compileArguments(withId("^x+$"), "search");
      expect(validateArguments(validate, { q: "xx", again: "x" }, limits)).toBeTruthy();
      const { error } = timed(() => validateArguments(validate, { again: "y" }, limits));
      expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    }
  });

  it("[C19] a refused schema with $id is refused for the same reason every time", () => {
    for (let run = 0; run < 2; run++) {
      const { error } = timed(() => compileArguments(withId("^(?=x)x+$"), "search"));
      expect(isToolCallError(error, "INVALID_SCHEMA")).toBe(true);
      expect((error as Error).message).toContain("RE2");
    }
  });
});

describe("absurd schemas are refused, not a RangeError", () => {
  const nested = (levels: number) => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < levels; i++) schema = objectWith({ a: schema });
    return schema;
  };

  it("[C19] a schema nested 100,000 levels deep is refused with a clear error", () => {
    const { ms, error } = timed(() => compileArguments(nested(100_000), "deep_tool"));
    expect(isToolCallError(error, "INVALID_SCHEMA")).toBe(true);
    expect((error as Error).message).toContain('tool "deep_tool"');
    expect((error as Error).message).toContain(`nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    expect(ms).toBeLessThan(2000);
  });

  it("[C19] the limit is on the schema's nesting: 127 levels compile, 129 are refused", () => {
    expect(schemaDepth(nested(63))).toBe(127);
    expect(() => compileArguments(nested(63))).not.toThrow();
    expect(schemaDepth(nested(64))).toBe(129);
    const { error } = timed(() => compileArguments(nested(64)));
    expect(isToolCallError(error, "INVALID_SCHEMA")).toBe(true);
  });

  it("[C19] a deep but reasonable schema still compiles and validates", () => {
    const schema = nested(30); // 30 objects, each with `properties` → `a`
    expect(schemaDepth(schema)).toBe(61);
    const validate = compileArguments(schema);
    let args: unknown = "leaf";
    for (let i = 0; i < 30; i++) args = { a: args };
    expect(validateArguments(validate, args, limits)).toEqual(args);
  });
});
