// Parses `.secondshift.yaml`: YAML with positions, forbidden keys, schema, semantic checks,
// normalisation. It never throws on bad input: every problem comes back as a located error,
// because the file is written by people who need to be told exactly what to fix.
// Every step is linear in the file's size (a 256 KiB file parses in well under a second, see
// bench/parse-big.ts): the document is read with a nesting guard, walked once into an index
// that answers each error's position by lookup, and at most `maxErrors` errors are returned.
import type { Document, LineCounter, Scalar } from "yaml";
import { checkJob } from "./checks.ts";
import { indexDocument, type DocumentIndex, type DuplicateKey } from "./document-index.ts";
import { ACCESS_ONLY_MESSAGE, findForbiddenKeys, type ForbiddenKeyHit } from "./forbidden-keys.ts";
import { normaliseConfig } from "./normalise.ts";
import { formatPath, lineAndColumn, offsetOf, shorten, type PathSegments } from "./positions.ts";
import { REPO_CONFIG_FILE, repoConfigCaps } from "./schema.ts";
import type { ParseRepoConfigResult, RepoConfigError, RepoConfigLimits } from "./types.ts";
import { schemaProblems } from "./validator.ts";
import { readYamlDocument } from "./yaml-document.ts";

export interface ParseRepoConfigOptions {
  /** Shown in errors; defaults to `.secondshift.yaml`. */
  file?: string;
  limits: RepoConfigLimits;
}

/** Builds located errors for one file. */
class Report {
  readonly errors: RepoConfigError[] = [];
  constructor(
    readonly file: string,
    readonly lineCounter: LineCounter,
  ) {}

  atOffset(offset: number, path: PathSegments | string, message: string): void {
    const { line, column } = lineAndColumn(this.lineCounter, offset);
    const shown = typeof path === "string" ? path : formatPath(path);
    this.errors.push({ file: this.file, line: Math.max(line, 1), column, path: shown, message });
  }

  /** Sorted by position; beyond `maxErrors`, one last entry says how many were left out. */
  result(): ParseRepoConfigResult {
    const errors = this.errors.sort((a, b) => a.line - b.line || a.column - b.column);
    const max = repoConfigCaps.maxErrors;
    const next = errors[max];
    if (!next) return { ok: false, errors };
    const more = errors.length - max;
    return {
      ok: false,
      errors: [
        ...errors.slice(0, max),
        {
          ...next,
          path: "",
          message: `and ${more} more error${more === 1 ? "" : "s"} from this line on (only the first ${max} are listed); fix the ones above and check again`,
        },
      ],
    };
  }
}

const sourceOf = (text: string, key: Scalar): string => {
  const [start = 0, end = start] = key.range ?? [];
  return shorten(text.slice(start, end));
};

function reportStructure(report: Report, text: string, index: DocumentIndex): void {
  for (const duplicate of index.duplicates) reportDuplicate(report, text, duplicate);
  for (const { path, offset } of index.complexKeys) {
    report.atOffset(
      offset,
      path,
      "a key must be a plain name, not an alias (*name), a list or a map",
    );
  }
  if (index.aliases > repoConfigCaps.maxAliases) {
    report.atOffset(
      0,
      "",
      `the file uses ${index.aliases} aliases (*name); at most ${repoConfigCaps.maxAliases} are allowed`,
    );
  }
}

function reportDuplicate(report: Report, text: string, d: DuplicateKey): void {
  const firstLine = lineAndColumn(report.lineCounter, d.first.range?.[0] ?? 0).line;
  const secondLine = lineAndColumn(report.lineCounter, d.second.range?.[0] ?? 0).line;
  const first = sourceOf(text, d.first);
  const second = sourceOf(text, d.second);
  const same =
    first === second
      ? `${first} is set twice`
      : `${first} and ${second} are the same key ${JSON.stringify(shorten(d.key))} once read`;
  report.atOffset(
    d.second.range?.[0] ?? 0,
    d.path,
    `Map keys must be unique: ${same} (lines ${firstLine} and ${secondLine}); remove or rename one`,
  );
}

/** Prefixes of forbidden-key paths, so a schema error inside one is dropped in O(depth). */
function insideForbidden(hits: ForbiddenKeyHit[]): (path: PathSegments) => boolean {
  const keyOf = (prefix: string, segment: string | number) => `${prefix}\u0000${String(segment)}`;
  const forbidden = new Set(hits.map((hit) => hit.path.reduce<string>(keyOf, "")));
  return (path) => {
    let prefix = "";
    for (const segment of path) {
      prefix = keyOf(prefix, segment);
      if (forbidden.has(prefix)) return true;
    }
    return false;
  };
}

function reportContent(
  report: Report,
  doc: Document,
  index: DocumentIndex,
  data: unknown,
  limits: RepoConfigLimits,
  forbidden: ForbiddenKeyHit[],
): void {
  const locate = (path: PathSegments, atKey: boolean, message: string) =>
    report.atOffset(offsetOf(doc, index, path, atKey), path, message);
  // A forbidden key also fails the schema ("unknown key"); one message per key is enough.
  const isForbidden = insideForbidden(forbidden);
  for (const p of schemaProblems(data)) {
    if (!isForbidden(p.path)) locate(p.path, p.atKey, p.message);
  }
  const jobs = (data as { jobs?: unknown } | null)?.jobs;
  if (!jobs || typeof jobs !== "object" || Array.isArray(jobs)) return;
  // Beyond the allowed number of jobs the file fails anyway; checking a cron expression and a
  // time zone costs a fraction of a millisecond, too much to spend on thousands of jobs.
  const entries = Object.entries(jobs as Record<string, unknown>).slice(0, repoConfigCaps.maxJobs);
  for (const [key, job] of entries) {
    if (!job || typeof job !== "object" || Array.isArray(job)) continue;
    for (const p of checkJob(key, job as Record<string, unknown>, limits)) {
      locate(p.path, p.atKey ?? false, p.message);
    }
  }
}

export function parseRepoConfig(
  text: string,
  options: ParseRepoConfigOptions,
): ParseRepoConfigResult {
  const file = options.file ?? REPO_CONFIG_FILE;
  if (Buffer.byteLength(text, "utf8") > repoConfigCaps.maxFileBytes) {
    const message = `the file is larger than ${repoConfigCaps.maxFileBytes / 1024} KiB; move long prompts into promptFile files`;
    return { ok: false, errors: [{ file, line: 1, column: 1, path: "", message }] };
  }
  const read = readYamlDocument(text, repoConfigCaps.maxNestingDepth);
  const report = new Report(file, read.lineCounter);
  for (const problem of read.problems) {
    report.atOffset(problem.offset, "", `YAML syntax error: ${shorten(problem.message, 300)}`);
  }
  if (!read.ok) return report.result();
  const { doc } = read;
  const index = indexDocument(doc.contents);
  reportStructure(report, text, index);
  if (report.errors.length > 0) return report.result();
  if (doc.contents === null) {
    report.atOffset(0, "", "the file is empty; it must contain `version: 1` and `jobs:`");
    return report.result();
  }

  const forbidden = findForbiddenKeys(doc.contents);
  for (const hit of forbidden) {
    report.atOffset(
      hit.offset,
      hit.path,
      `"${shorten(hit.key)}" cannot be set: ${ACCESS_ONLY_MESSAGE}`,
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    report.atOffset(0, "", `the YAML could not be read: ${shorten(detail, 300)}`);
    return report.result();
  }
  reportContent(report, doc, index, data, options.limits, forbidden);
  if (report.errors.length > 0) return report.result();
  return { ok: true, config: normaliseConfig(data as Record<string, unknown>, options.limits) };
}
