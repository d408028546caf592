// A list's filters live in the page's URL (`/w/…/runs?status=FAILED&since=2026-12-01`), so a
// filtered view can be linked and reloaded. The page (server) and the list (client) read them
// with the same function, so the server's prefetch and the client's query have the same key.
// Plain module: pages import it on the server, lists in the browser.

/** What `useSearchParams()` and `URLSearchParams` both offer. */
export interface ParamReader {
  get(name: string): string | null;
}

/** A page's `searchParams` prop, once awaited. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/** The page's search params as a reader (a repeated name counts once: its first value). */
export function searchParamsOf(record: PageSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(record)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  return params;
}

/** Each filter of `empty` read from the URL, "" when absent. */
export function readFilters<F extends Record<string, string>>(params: ParamReader, empty: F): F {
  const filters: Record<string, string> = {};
  for (const name of Object.keys(empty)) filters[name] = params.get(name) ?? "";
  return filters as F;
}

/** `current` with every filter set (or removed when empty); other params stay. */
export function withFilters(current: string, filters: Record<string, string>): string {
  const params = new URLSearchParams(current);
  for (const [name, value] of Object.entries(filters)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  return params.toString();
}
