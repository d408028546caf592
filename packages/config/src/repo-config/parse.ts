// Parses `.secondshift.yaml`: YAML with positions, forbidden keys, schema, semantic checks,
// normalisation. It never throws on bad input: every problem comes back as a located error,
// because the file is written by people who need to be told exactly what to fix.
// Every step is linear in the file's size (a 256 KiB file parses in well under 200 ms, see
// bench/parse-big.ts): the document is read with a nesting guard, walked once into an index
// that answers each error's position by lookup, and at most `maxErrors` errors are returned.
import { checkJob } from "./checks.ts";
import { indexDocument, type DocumentIndex, type DuplicateKey } from "./document-index.ts";
import { ACCESS_ONLY_MESSAGE, findForbiddenKeys, type ForbiddenKeyHit } from "./forbidden-keys.ts";
import { normaliseConfig } from "./normalise.ts";
import { formatPath, LineIndex, offsetOf, shorten, type PathSegments } from "./positions.ts";
import { REPO_CONFIG_FILE, repoConfigCaps } from "./schema.ts";
import type { ParseRepoConfigResult, RepoConfigError, RepoConfigLimits } from "./types.ts";
import { schemaProblems } from "./validator.ts";
import { constructData, readYamlTree, type YamlNode, type YamlTree } from "./yaml-tree.ts";

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
    readonly lines: LineIndex,
  ) {}

  atOffset(offset: number, path: PathSegments | string, message: string): void {
    const { line, column } = this.lines.lineAndColumn(offset);
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

const sourceOf = (text: string, key: YamlNode): string =>
  shorten(text.slice(key.start, key.kind === "scalar" ? key.end : key.start));

function reportStructure(report: Report, text: string, tree: YamlTree, index: DocumentIndex): void {
  for (const duplicate of index.duplicates) reportDuplicate(report, text, duplicate);
  for (const { path, offset } of index.complexKeys) {
    report.atOffset(
      offset,
      path,
      "a key must be a plain name, not an alias (*name), a tagged value (!tag), a list or a map",
    );
  }
  if (tree.aliases > repoConfigCaps.maxAliases) {
    report.atOffset(
      0,
      "",
      `the file uses ${tree.aliases} aliases (*name); at most ${repoConfigCaps.maxAliases} are allowed`,
    );
  }
}

function reportDuplicate(report: Report, text: string, d: DuplicateKey): void {
  const firstLine = report.lines.lineAndColumn(d.first.start).line;
  const secondLine = report.lines.lineAndColumn(d.second.start).line;
  const first = sourceOf(text, d.first);
  const second = sourceOf(text, d.second);
  const same =
    first === second
      ? `${first} is set twice`
      : `${first} and ${second} are the same key ${JSON.stringify(shorten(d.key))} once read`;
  report.atOffset(
    d.second.start,
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
  root: YamlNode,
  index: DocumentIndex,
  data: unknown,
  limits: RepoConfigLimits,
  forbidden: ForbiddenKeyHit[],
): void {
  const locate = (path: PathSegments, atKey: boolean, message: string) =>
    report.atOffset(offsetOf(root, index, path, atKey), path, message);
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
  const report = new Report(file, new LineIndex(text));
  const read = readYamlTree(text, {
    maxDepth: repoConfigCaps.maxNestingDepth,
    maxExpandedSize: repoConfigCaps.maxExpandedValues,
  });
  if (!read.ok) {
    report.atOffset(read.problem.offset, "", shorten(read.problem.message, 300));
    return report.result();
  }
  const { tree } = read;
  const index = indexDocument(tree.root);
  reportStructure(report, text, tree, index);
  if (report.errors.length > 0) return report.result();
  if (tree.root === null) {
    report.atOffset(0, "", "the file is empty; it must contain `version: 1` and `jobs:`");
    return report.result();
  }

  const forbidden = findForbiddenKeys(tree.root);
  for (const hit of forbidden) {
    report.atOffset(
      hit.offset,
      hit.path,
      `"${shorten(hit.key)}" cannot be set: ${ACCESS_ONLY_MESSAGE}`,
    );
  }
  const built = constructData(text, tree);
  if (!built.ok) {
    report.atOffset(built.problem.offset, "", shorten(built.problem.message, 300));
    return report.result();
  }
  reportContent(report, tree.root, index, built.data, options.limits, forbidden);
  if (report.errors.length > 0) return report.result();
  return {
    ok: true,
    config: normaliseConfig(built.data as Record<string, unknown>, options.limits),
  };
}
