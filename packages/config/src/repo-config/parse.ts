// Parses `.secondshift.yaml`: YAML with positions, forbidden keys, schema, semantic checks,
// normalisation. It never throws on bad input: every problem comes back as a located error,
// because the file is written by people who need to be told exactly what to fix.
import { LineCounter, parseDocument, type Document } from "yaml";
import { checkJob } from "./checks.ts";
import { ACCESS_ONLY_MESSAGE, findForbiddenKeys } from "./forbidden-keys.ts";
import { normaliseConfig } from "./normalise.ts";
import { formatPath, lineAndColumn, offsetOf, type PathSegments } from "./positions.ts";
import { REPO_CONFIG_FILE, repoConfigCaps } from "./schema.ts";
import type { ParseRepoConfigResult, RepoConfigError, RepoConfigLimits } from "./types.ts";
import { schemaProblems } from "./validator.ts";

export interface ParseRepoConfigOptions {
  /** Shown in errors; defaults to `.secondshift.yaml`. */
  file?: string;
  limits: RepoConfigLimits;
}

const isInside = (path: PathSegments, prefix: PathSegments) =>
  prefix.length <= path.length && prefix.every((segment, i) => String(segment) === String(path[i]));

export function parseRepoConfig(
  text: string,
  options: ParseRepoConfigOptions,
): ParseRepoConfigResult {
  const file = options.file ?? REPO_CONFIG_FILE;
  const fail = (errors: RepoConfigError[]): ParseRepoConfigResult => ({
    ok: false,
    errors: errors.sort((a, b) => a.line - b.line || a.column - b.column),
  });
  const at = (line: number, column: number, path: string, message: string): RepoConfigError => ({
    file,
    line,
    column,
    path,
    message,
  });

  if (Buffer.byteLength(text, "utf8") > repoConfigCaps.maxFileBytes) {
    return fail([
      at(
        1,
        1,
        "",
        `the file is larger than ${repoConfigCaps.maxFileBytes / 1024} KiB; move long prompts into promptFile files`,
      ),
    ]);
  }
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, {
    lineCounter,
    prettyErrors: true,
    uniqueKeys: true,
    strict: true,
    version: "1.2",
  });
  if (doc.errors.length > 0) {
    return fail(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? { line: 1, col: 1 };
        const firstLine = (e.message.split("\n")[0] ?? e.message).replace(
          / at line \d+, column \d+:?$/,
          "",
        );
        return at(pos.line, pos.col, "", `YAML syntax error: ${firstLine}`);
      }),
    );
  }
  if (doc.contents === null) {
    return fail([at(1, 1, "", "the file is empty; it must contain `version: 1` and `jobs:`")]);
  }
  const locate = (path: PathSegments, atKey: boolean, message: string): RepoConfigError => {
    const { line, column } = lineAndColumn(lineCounter, offsetOf(doc, path, atKey));
    return at(line, column, formatPath(path), message);
  };

  const errors: RepoConfigError[] = [];
  const forbidden = findForbiddenKeys(doc.contents);
  for (const hit of forbidden) {
    const { line, column } = lineAndColumn(lineCounter, hit.offset);
    errors.push(
      at(line, column, formatPath(hit.path), `"${hit.key}" cannot be set: ${ACCESS_ONLY_MESSAGE}`),
    );
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return fail([
      ...errors,
      at(
        1,
        1,
        "",
        `the YAML could not be read: ${error instanceof Error ? error.message : String(error)}`,
      ),
    ]);
  }
  // A forbidden key also fails the schema ("unknown key"); one message per key is enough.
  const problems = schemaProblems(data).filter(
    (p) => !forbidden.some((hit) => isInside(p.path, hit.path)),
  );
  for (const p of problems) errors.push(locate(p.path, p.atKey, p.message));

  const jobs = (data as { jobs?: unknown } | null)?.jobs;
  if (jobs && typeof jobs === "object" && !Array.isArray(jobs)) {
    for (const [key, job] of Object.entries(jobs as Record<string, unknown>)) {
      if (!job || typeof job !== "object" || Array.isArray(job)) continue;
      for (const p of checkJob(key, job as Record<string, unknown>, options.limits)) {
        errors.push(locate(p.path, p.atKey ?? false, p.message));
      }
    }
  }
  if (errors.length > 0) return fail(errors);
  return { ok: true, config: normaliseConfig(data as Record<string, unknown>, options.limits) };
}
