// Argument checks against the snapshotted schema. The schema came from an outside service and
// the arguments from the model, so both are hardened: objects refuse unknown properties unless
// the schema says otherwise, nothing is coerced, and size caps hold even where the schema sets
// none (a walk over the value, so `{}`-typed parts are capped too).
// The schema's `pattern` / `patternProperties` / `propertyNames` regular expressions run on
// RE2 (compiled to wasm): matching takes time linear in the argument, so a catastrophic pattern
// such as `^(a+)+$` cannot stall the worker (C19). Patterns RE2 cannot run (lookarounds,
// backreferences) and absurdly deep schemas are refused when the schema is compiled.
// `uniqueItems` is checked through a set of canonical JSON strings: ajv compares every pair of
// items when they may be objects or arrays (1,000 objects of 25 keys took a second).
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { RE2 } from "re2-wasm";
import { ToolCallError } from "./refusals.ts";

// ajv-formats ships CJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv) => Ajv;

export interface ArgumentLimits {
  maxStringLength: number;
  maxArrayItems: number;
}

const MAX_DEPTH = 32;
/**
 * Objects and arrays nested in a tool's input schema. One level of arguments takes up to about
 * four levels of schema (`anyOf` → [ ] → { } → `properties` → name), and arguments may nest
 * MAX_DEPTH levels: a deeper schema describes nothing that could be sent.
 */
export const MAX_SCHEMA_DEPTH = 4 * MAX_DEPTH;

class UnsupportedPattern extends Error {
  constructor(
    readonly pattern: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

// One RE2 per distinct pattern: ajv keeps one per pattern in its scope anyway, and a wasm RE2
// is never freed, so building a new one at every compile would only grow the wasm heap.
const compiledPatterns = new Map<string, RE2>();

/** ajv's `code.regExp`: RE2 needs the `u` flag, which ajv passes by default (unicodeRegExp). */
const re2Engine = Object.assign(
  (pattern: string, flags: string): RE2 => {
    const key = `${flags}/${pattern}`;
    let compiled = compiledPatterns.get(key);
    if (!compiled) {
      try {
        compiled = new RE2(pattern, flags.includes("u") ? flags : `${flags}u`);
      } catch (error) {
        throw new UnsupportedPattern(pattern, error instanceof Error ? error.message : "invalid");
      }
      compiledPatterns.set(key, compiled);
    }
    return compiled;
  },
  { code: "RE2" },
);

const options = {
  strict: true,
  allErrors: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  allowUnionTypes: true,
  code: { regExp: re2Engine },
} as const;
type Schema = Record<string, unknown>;

/** JSON with object keys sorted: two JSON values are deep-equal iff their strings are equal. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const members = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Schema)[k])}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const LINEAR_UNIQUE_ITEMS = "x-secondshift-uniqueItems";

function itemsAreUnique(unique: boolean, data: unknown[]): boolean {
  if (!unique) return true;
  const seen = new Set<string>();
  for (const item of data) {
    const key = canonicalJson(item);
    if (seen.has(key)) {
      itemsAreUnique.errors = [
        { keyword: "uniqueItems", message: "must NOT have duplicate items", params: {} },
      ];
      return false;
    }
    seen.add(key);
  }
  return true;
}
itemsAreUnique.errors = [] as Array<Partial<ErrorObject>>;

function withKeywords<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  ajv.addKeyword({
    keyword: LINEAR_UNIQUE_ITEMS,
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: itemsAreUnique,
  });
  return ajv;
}

const draft07 = withKeywords(new Ajv(options));
const draft2020 = withKeywords(new Ajv2020(options));

/**
 * Copies the schema with additionalProperties:false wherever an object schema left it open, and
 * `uniqueItems` replaced by its linear-time equivalent.
 */
export function hardenSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardenSchema);
  if (!schema || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    // `properties` / `$defs` map names to schemas; `enum` / `const` / `default` are data.
    if (key === "enum" || key === "const" || key === "default" || key === "examples")
      out[key] = value;
    else if (key === "uniqueItems" && typeof value === "boolean") out[LINEAR_UNIQUE_ITEMS] = value;
    else if (
      (key === "properties" ||
        key === "$defs" ||
        key === "definitions" ||
        key === "patternProperties") &&
      value &&
      typeof value === "object"
    ) {
      out[key] = Object.fromEntries(
        Object.entries(value as Schema).map(([k, v]) => [k, hardenSchema(v)]),
      );
    } else out[key] = hardenSchema(value);
  }
  const isObjectSchema =
    out.type === "object" ||
    (Array.isArray(out.type) && out.type.includes("object")) ||
    "properties" in out;
  if (isObjectSchema && !("additionalProperties" in out) && !("unevaluatedProperties" in out))
    out.additionalProperties = false;
  return out;
}

/** Nesting of objects and arrays, walked with an explicit stack (no recursion to overflow). */
export function schemaDepth(schema: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[schema, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (!node || typeof node !== "object") continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SCHEMA_DEPTH) return deepest; // enough to refuse; stop walking
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function unusableSchema(toolName: string | undefined, why: string): ToolCallError {
  const tool = toolName ? `tool "${toolName}"` : "tool";
  return new ToolCallError(
    "INVALID_SCHEMA",
    `The input schema of the ${tool} cannot be used for validation: ${why}. Ask the owner to refresh the connection's tools, or the tool's provider to fix its schema.`,
  );
}

function whyUncompilable(error: unknown): string {
  if (error instanceof UnsupportedPattern) {
    const pattern = error.pattern.length > 100 ? `${error.pattern.slice(0, 97)}...` : error.pattern;
    return `its pattern ${JSON.stringify(pattern)} needs a feature the linear-time regular-expression engine (RE2) does not have, such as lookahead, lookbehind or backreferences (${error.detail})`;
  }
  return error instanceof Error ? error.message : "unknown error";
}

/**
 * Compiles a discovered input schema. `toolName` (the tool's name as the run sees it) makes a
 * refusal say which tool's schema is unusable.
 */
export function compileArguments(inputSchema: Schema, toolName?: string): ValidateFunction {
  if (schemaDepth(inputSchema) > MAX_SCHEMA_DEPTH) {
    throw unusableSchema(toolName, `it is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  }
  const hardened = hardenSchema(inputSchema) as Schema;
  const is2020 = typeof hardened.$schema === "string" && hardened.$schema.includes("2020-12");
  const { $schema: _ignored, ...rest } = hardened;
  const ajv = is2020 ? draft2020 : draft07;
  try {
    return ajv.compile(rest);
  } catch (error) {
    throw unusableSchema(toolName, whyUncompilable(error));
  } finally {
    // ajv keeps every compiled schema (and its $id) for reuse: compiling a schema with an $id
    // again would fail ("already exists"), and the worker's memory would grow with every run.
    ajv.removeSchema(rest);
  }
}

function checkSizes(value: unknown, limits: ArgumentLimits, path: string, depth: number): void {
  if (depth > MAX_DEPTH)
    throw new ToolCallError(
      "INVALID_ARGUMENTS",
      `Arguments are nested deeper than ${MAX_DEPTH} levels.`,
    );
  if (typeof value === "string") {
    if (value.length > limits.maxStringLength)
      throw new ToolCallError(
        "INVALID_ARGUMENTS",
        `Argument ${path || "/"} is longer than ${limits.maxStringLength} characters.`,
      );
  } else if (Array.isArray(value)) {
    if (value.length > limits.maxArrayItems)
      throw new ToolCallError(
        "INVALID_ARGUMENTS",
        `Argument ${path || "/"} has more than ${limits.maxArrayItems} items.`,
      );
    value.forEach((item, i) => checkSizes(item, limits, `${path}/${i}`, depth + 1));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.length > limits.maxStringLength)
        throw new ToolCallError("INVALID_ARGUMENTS", "An argument name is too long.");
      checkSizes(item, limits, `${path}/${key}`, depth + 1);
    }
  }
}

export function validateArguments(
  validate: ValidateFunction,
  args: unknown,
  limits: ArgumentLimits,
): Record<string, unknown> {
  if (!args || typeof args !== "object" || Array.isArray(args)) {
    throw new ToolCallError("INVALID_ARGUMENTS", "Tool arguments must be a JSON object.");
  }
  checkSizes(args, limits, "", 0);
  if (!validate(args)) {
    // ajv's messages name the rule (type, property, limit), never the value that was sent.
    const detail = (validate.errors ?? [])
      .map(
        (e) =>
          `${e.instancePath || "/"} ${e.message ?? "is invalid"}${e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ""}`,
      )
      .join("; ");
    throw new ToolCallError(
      "INVALID_ARGUMENTS",
      `Arguments do not match the tool's schema: ${detail}.`,
    );
  }
  return args as Record<string, unknown>;
}
