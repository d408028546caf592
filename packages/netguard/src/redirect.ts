// Redirect rules (fetch standard semantics, applied by us so every hop is re-checked):
// 301/302 turn POST into GET, 303 turns everything but HEAD into GET and drops the body,
// 307/308 keep method and body (only if the body can be sent again). Credentials are dropped
// as soon as a hop leaves the origin, and stay dropped for the rest of the chain.
import { Headers } from "undici";
import { netguardError } from "./errors.ts";
import { urlHostname } from "./target.ts";

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Always treated as credentials; callers add their own (x-api-key, x-goog-api-key, ...). */
export const DEFAULT_SENSITIVE_HEADERS = ["authorization", "cookie", "proxy-authorization"];

const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

export interface HopRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

/** Bodies that can be sent a second time for a 307/308. Streams cannot. */
export function isReplayableBody(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof URLSearchParams ||
    body instanceof Blob
  );
}

export function nextHop(
  current: HopRequest,
  status: number,
  location: string,
  sensitiveHeaders: readonly string[],
): HopRequest {
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    throw netguardError("INVALID_URL", `${urlHostname(current.url)} redirected to an invalid URL.`);
  }
  const headers = new Headers(current.headers);
  let { method, body } = current;
  if (
    (status === 303 && method !== "HEAD") ||
    ((status === 301 || status === 302) && method === "POST")
  ) {
    method = "GET";
    body = undefined;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (!isReplayableBody(body)) {
    throw netguardError(
      "REDIRECT_BODY_NOT_REPLAYABLE",
      `${urlHostname(current.url)} answered ${status}, which needs the streamed request body sent again; ` +
        `call the final URL directly.`,
    );
  }
  if (url.origin !== current.url.origin) {
    for (const name of [...DEFAULT_SENSITIVE_HEADERS, ...sensitiveHeaders]) headers.delete(name);
  }
  // Never carry a fragment across hops (fetch semantics: it belongs to the original URL).
  url.hash = "";
  return { url, method, headers, body };
}

export interface RedirectRules {
  mode: "follow" | "error";
  /** Redirects followed so far in this chain. */
  followed: number;
  maxRedirects: number;
  sensitiveHeaders: readonly string[] | undefined;
}

/**
 * The hop a redirect leads to, or the refusal: "error" refuses any redirect, and a chain stops
 * after maxRedirects. Shared by fetch and request(), so both follow exactly the same rules.
 */
export function followRedirect(
  current: HopRequest,
  status: number,
  location: string,
  rules: RedirectRules,
): HopRequest {
  const host = urlHostname(current.url);
  if (rules.mode === "error") {
    throw netguardError(
      "REDIRECT_NOT_ALLOWED",
      `${host} answered with a redirect, which this call does not follow.`,
    );
  }
  if (rules.followed >= rules.maxRedirects) {
    throw netguardError(
      "TOO_MANY_REDIRECTS",
      `Outbound request stopped after ${rules.maxRedirects} redirects (last from ${host}); call the final URL directly.`,
    );
  }
  return nextHop(
    current,
    status,
    location,
    (rules.sensitiveHeaders ?? []).map((h) => h.toLowerCase()),
  );
}
