// Security headers. Every response of the web process carries the static ones (server.ts sets
// them before routing, so the API, health and webhook routes have them too). Pages get a
// Content-Security-Policy with a fresh nonce per request from proxy.ts, which Next reads from
// the request's CSP header to put that nonce on its own scripts; any other inline script
// (an injected one) does not run. JSON routes get a policy that allows nothing at all.

/** The request header proxy.ts passes the nonce to server components in. */
export const NONCE_HEADER = "x-nonce";
/** The page asked for (path and query), set by the proxy: sign-in returns there. */
export const PAGE_PATH_HEADER = "x-secondshift-page";

/** Headers on every response, pages and JSON alike. */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/** Behind https only: a year, this host only (subdomains are the operator's business). */
export const HSTS = "max-age=31536000";

/** For responses that are data, never a document: nothing may load or frame them. */
export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The page policy for one response; `nonce` is fresh for every request. */
export function pageContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts Next loads from a nonced script may run, nothing inline else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
