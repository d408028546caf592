// Generators of `.secondshift.yaml` files just under the 256 KiB limit, shaped to stress each
// part of the parser: many keys in one mapping, many jobs, deep nesting, many errors of each
// kind. Used by bench/parse-big.ts (figures) and by the parser's regression tests.
import { repoConfigCaps } from "../src/repo-config/schema.ts";

/** Leaves room under the limit so every generated file is parsed, not refused for its size. */
const TARGET_BYTES = repoConfigCaps.maxFileBytes - 1024;

/** Repeats `line(i)` until the next line would pass the target size. */
function fill(head: string, line: (i: number) => string, target = TARGET_BYTES): string {
  const parts = [head];
  let size = Buffer.byteLength(head);
  for (let i = 0; ; i++) {
    const next = line(i);
    const bytes = Buffer.byteLength(next);
    if (size + bytes > target) break;
    parts.push(next);
    size += bytes;
  }
  return parts.join("");
}

const tools = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}_${i}`).join(", ");

/** A valid file: the most jobs allowed, each requesting hundreds of tools over many groups. */
export function validBigConfig(): string {
  const groups = (kind: string, n: number) =>
    Array.from(
      { length: n },
      (_, g) => `        - { label: ${kind}${g}, required: false, tools: [${tools("t", 20)}] }\n`,
    ).join("");
  const job = (i: number) =>
    `  job-${i}:\n    name: Job ${i}\n    prompt: Summarise what happened in area ${i}\n` +
    `    schedule: "${i % 60} 6 * * 1-5"\n    timezone: Europe/Berlin\n` +
    `    tokenBudget: 200000\n    timeoutMinutes: 30\n    tools:\n` +
    `      github: { required: true, tools: [${tools("gh", 100)}] }\n` +
    `      sentry: { required: false, tools: [${tools("se", 100)}] }\n` +
    `      mcp:\n${groups("m", 10)}      http:\n${groups("h", 10)}`;
  let text = "version: 1\njobs:\n";
  for (let i = 0; i < repoConfigCaps.maxJobs; i++) {
    if (Buffer.byteLength(text + job(i)) > TARGET_BYTES) break;
    text += job(i);
  }
  return text;
}

/** One job with thousands of unknown keys in one mapping: every key is an error. */
export function manyKeysInOneMap(): string {
  return fill("version: 1\njobs:\n  a:\n    name: x\n    prompt: y\n", (i) => `    k${i}: v\n`);
}

/** Thousands of jobs (over the 50 allowed), each with a bad cron, a forbidden and an unknown key. */
export function manyJobsWithErrors(): string {
  return fill(
    "version: 1\njobs:\n",
    (i) =>
      `  j${i}:\n    name: x\n    prompt: y\n    schedule: "61 * * * *"\n    image: u\n    retries: 3\n`,
  );
}

/** Unknown keys holding deep mappings (one error each, found at the top of a deep subtree). */
export function deepMaps(depth = 24): string {
  const block = (i: number) => {
    let out = `    d${i}:\n`;
    for (let level = 1; level < depth; level++) out += `${" ".repeat(4 + 2 * level)}l${level}:\n`;
    return `${out}${" ".repeat(4 + 2 * depth)}leaf: 1\n`;
  };
  return fill("version: 1\njobs:\n  a:\n    name: x\n    prompt: y\n", block);
}

/** Tens of thousands of YAML syntax errors (stray closing brackets, repeated). */
export function manySyntaxErrors(): string {
  return fill("version: 1\njobs:\n", (i) => `  j${i}: [a, b]]\n`);
}

/** Lines that each open a level and never close it, until the nesting guard stops reading. */
export function brokenNesting(): string {
  return fill("version: 1\njobs:\n", (i) => `  j${i}: name: x\n`);
}

/** A quarter of a million `[`: without the nesting guard, seconds and a stack overflow. */
export function deepFlow(): string {
  return fill("version: 1\njobs: ", () => "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
}

/** Keys that collide only after conversion (1 and "1"), thousands of them. */
export function manyConvertedDuplicates(): string {
  return fill(
    "version: 1\njobs:\n  a:\n    name: x\n    prompt: y\n    extra:\n",
    (i) => `      ${i}: a\n      "${i}": b\n`,
  );
}

/** ~30,000 keys in one flow mapping under an unknown key (short keys: more of them). */
export function flowMapKeys(): string {
  return `${fill("version: 1\njobs:\n  a:\n    name: x\n    prompt: y\n    extra: {", (i) => `k${i}: 1, `, TARGET_BYTES - 8)}z: 1}\n`;
}

/** ~30,000 keys in the tools mapping: every one an unknown tool kind. */
export function toolKindKeys(): string {
  return `${fill("version: 1\njobs:\n  a:\n    name: x\n    prompt: y\n    tools: {", (i) => `g${i}: 1, `, TARGET_BYTES - 8)}z: 1}\n`;
}

/** ~33,000 unknown keys at the top level of the file. */
export function topLevelKeys(): string {
  return fill("version: 1\njobs: {}\n", (i) => `k${i}: 1\n`);
}

/** Thousands of jobs, each a one-line flow mapping (over the 50 allowed). */
export function manyFlowJobs(): string {
  return fill("version: 1\njobs:\n", (i) => `  j${i}: {name: x, prompt: y}\n`);
}

export const bigConfigs = {
  valid: validBigConfig,
  "many keys in one map": manyKeysInOneMap,
  "many jobs with errors": manyJobsWithErrors,
  "deep maps": () => deepMaps(),
  "many syntax errors": manySyntaxErrors,
  "broken lines that nest": brokenNesting,
  "256 Ki of [": deepFlow,
  "duplicate keys after conversion": manyConvertedDuplicates,
  "flow map of 30,000 keys": flowMapKeys,
  "30,000 tool kinds": toolKindKeys,
  "33,000 top-level keys": topLevelKeys,
  "one-line jobs": manyFlowJobs,
} as const;
