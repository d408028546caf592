// Builds request URLs under the owner's base URL. Every caller-supplied piece is one encoded
// path segment: it can never add a segment, climb out of the base path, or change the origin.
import { connectorError } from "./errors.ts";

export function parseBaseUrl(endpoint: string, service: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw connectorError(
      "INVALID_SETTINGS",
      `The ${service} connection's endpoint is not a valid URL. Ask the workspace owner to fix it.`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw connectorError(
      "INVALID_SETTINGS",
      `The ${service} connection's endpoint must be a plain base URL (no credentials, query or fragment).`,
    );
  }
  return url;
}

/** Refuses a value that would be anything but one literal path segment. */
export function checkSegment(value: string, what: string): string {
  const decodedOnce = safeDecode(value);
  const bad =
    value.length === 0 ||
    value === "." ||
    value === ".." ||
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    /[/\\\u0000-\u001f\u007f]/.test(value) ||
    // "%2F", "%2e%2e", double-encoded forms: refuse anything that decodes into a separator or dot-segment.
    (decodedOnce !== value &&
      (/[/\\]/.test(decodedOnce) ||
        decodedOnce === "." ||
        decodedOnce === ".." ||
        /%[0-9a-f]{2}/i.test(decodedOnce)));
  if (bad)
    throw connectorError(
      "INVALID_ARGUMENTS",
      `The ${what} is not allowed here: it must be a single path segment.`,
    );
  return value;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** base + "/" + encoded segments (+ query). The result is checked to stay under the base. */
export function buildUrl(
  base: URL,
  segments: readonly string[],
  query: Record<string, string | number | undefined> = {},
): URL {
  const basePath = base.pathname.replace(/\/+$/, "");
  const path = segments.map((s) => encodeURIComponent(s)).join("/");
  const url = new URL(base.origin);
  url.pathname = `${basePath}/${path}`;
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") url.searchParams.set(key, String(value));
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
    throw connectorError(
      "OUT_OF_SCOPE",
      "The request would leave the connection's base URL and was refused.",
    );
  }
  return url;
}

/** Parses an RFC 8288 Link header and returns the `page` query value of rel="next", if any. */
export function nextPageFromLink(link: string | null): number | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (match?.[2] === "next" && match[1]) {
      try {
        const page = new URL(match[1]).searchParams.get("page");
        if (page && /^\d+$/.test(page)) return Number(page);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Sentry paginates by cursor: the `cursor` of rel="next" when its results="true". */
export function nextCursorFromLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    if (!/rel="next"/.test(part) || !/results="true"/.test(part)) continue;
    const cursor = /cursor="([^"]+)"/.exec(part)?.[1];
    if (cursor) return cursor;
  }
  return null;
}
