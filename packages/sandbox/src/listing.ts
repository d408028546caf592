// Listing and searching the workspace, as commands run through exec: the agent's list_files and
// search_files tools build on these, so the shell quoting lives in one place.

const MAX_LISTED = 5000;
const MAX_SEARCH_LINES = 500;
/** Listing and searching are quick; a runaway pattern must not hold the run for long. */
export const LISTING_TIMEOUT_MS = 30_000;

/** Single-quotes a value for bash, so a pattern or path is one word whatever it contains. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function listFilesCommand(
  path: string,
  options: { recursive?: boolean; pattern?: string },
): string {
  const depth = options.recursive ? "" : "-maxdepth 1";
  const name = options.pattern ? `-name ${shellQuote(options.pattern)}` : "";
  return `find ${shellQuote(path || ".")} ${depth} -mindepth 1 ${name} -not -path '*/.git/*' -not -name .git | sort | head -n ${MAX_LISTED}`;
}

export function searchCommand(pattern: string, path: string): string {
  return `rg --line-number --max-count 50 --max-columns 300 -e ${shellQuote(pattern)} ${shellQuote(path || ".")} | head -n ${MAX_SEARCH_LINES}`;
}
