// The outbound client every service uses: undici's fetch over the guarded dispatcher, with the
// URL checks, our own redirect loop (re-checking every hop), and the size and time limits on
// the response body. `request()` (request.ts) is the same guard for the gateway's proxy.
import { fetch as undiciFetch, Headers, Response, type Agent, type RequestInit } from "undici";
import { createGuardedDispatcher, type DispatcherOptions } from "./dispatcher.ts";
import { startDeadline, type Deadline } from "./deadline.ts";
import { limitBody } from "./body.ts";
import { connectFailed, isNetguardError, tooLarge } from "./errors.ts";
import { resolvePolicy, type OutboundPolicy, type ResolvedPolicy } from "./policy.ts";
import {
  followRedirect,
  isReplayableBody,
  REDIRECT_STATUSES,
  type HopRequest,
} from "./redirect.ts";
import { checkUrl, parseUrl, urlHostname } from "./target.ts";
import { guardedDispatch, type GuardedRequestOptions, type GuardedResponse } from "./request.ts";

export interface GuardedRequestInit extends Omit<
  RequestInit,
  "redirect" | "dispatcher" | "duplex"
> {
  /** "follow" (default) re-checks every hop; "manual" returns the 3xx; "error" refuses it. */
  redirect?: "follow" | "manual" | "error";
  /** Extra headers to drop on a cross-origin redirect (Authorization and Cookie always are). */
  sensitiveHeaders?: readonly string[];
  /** Overrides the policy's total deadline for this request (e.g. a long model stream). */
  timeoutMs?: number;
  /** Overrides the policy's response size limit for this request. */
  maxResponseBytes?: number;
}

export interface OutboundClient {
  /** WHATWG fetch, guarded. The response body is a size- and time-limited stream. */
  fetch(input: string | URL, init?: GuardedRequestInit): Promise<Response>;
  /** The same guards with a Node stream body: far cheaper than fetch on hot paths. */
  request(input: string | URL, options?: GuardedRequestOptions): Promise<GuardedResponse>;
  /** The guarded dispatcher itself, for libraries that take an undici dispatcher. */
  dispatcher: Agent;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

// undici reports network failures as TypeError("fetch failed", { cause }); give the caller the
// netguard reason (our own errors thrown in the connect hook arrive as that cause).
function toNetguardError(error: unknown, host: string, deadline: Deadline): unknown {
  if (deadline.signal.aborted) return deadline.signal.reason as unknown;
  if (isNetguardError(error)) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  if (isNetguardError(cause)) return cause;
  // Anything else that is not undici's network failure is a caller bug (bad header, bad body):
  // let it surface as it is.
  if (error instanceof TypeError && error.message === "fetch failed")
    return connectFailed(host, cause ?? error);
  return error;
}

function wrapResponse(
  response: Response,
  url: URL,
  maxBytes: number,
  deadline: Deadline,
): Response {
  const host = urlHostname(url);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    const error = tooLarge(host, maxBytes);
    deadline.abort(error);
    throw error;
  }
  if (response.body === null) {
    deadline.clear();
    return response;
  }
  const wrapped = new Response(limitBody(response.body, host, maxBytes, deadline), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; keep the final one (after redirects) for callers.
  Object.defineProperty(wrapped, "url", { value: response.url || url.href });
  return wrapped;
}

/** One hop through undici's fetch over the guarded dispatcher; redirects are ours (manual). */
function send(hop: HopRequest, init: GuardedRequestInit, dispatcher: Agent, signal: AbortSignal) {
  const streamed = !isReplayableBody(hop.body);
  // Our own options are not fetch options; the rest (cache, keepalive, ...) pass through.
  const { sensitiveHeaders: _s, timeoutMs: _t, maxResponseBytes: _m, ...fetchInit } = init;
  return undiciFetch(hop.url, {
    ...fetchInit,
    method: hop.method,
    headers: hop.headers,
    body: hop.body as RequestInit["body"],
    redirect: "manual",
    signal,
    dispatcher,
    // Streaming request bodies (the gateway's proxied POST) need half-duplex mode.
    ...(streamed ? { duplex: "half" as const } : {}),
  });
}

export async function guardedRequest(
  policy: ResolvedPolicy,
  dispatcher: Agent,
  input: string | URL,
  init: GuardedRequestInit = {},
): Promise<Response> {
  const first = parseUrl(input);
  const deadline = startDeadline(
    urlHostname(first),
    init.timeoutMs ?? policy.timeoutMs,
    init.signal,
  );
  const maxBytes = init.maxResponseBytes ?? policy.maxResponseBytes;
  let hop: HopRequest = {
    url: first,
    method: (init.method ?? "GET").toUpperCase(),
    headers: new Headers(init.headers),
    body: init.body ?? undefined,
  };
  try {
    for (let redirects = 0; ; redirects += 1) {
      checkUrl(hop.url, policy);
      const response = await send(hop, init, dispatcher, deadline.signal);
      const location = response.headers.get("location");
      const mode = init.redirect ?? "follow";
      if (!REDIRECT_STATUSES.has(response.status) || location === null || mode === "manual") {
        return wrapResponse(response, hop.url, maxBytes, deadline);
      }
      await response.body?.cancel().catch(() => undefined);
      hop = followRedirect(hop, response.status, location, {
        mode,
        followed: redirects,
        maxRedirects: policy.maxRedirects,
        sensitiveHeaders: init.sensitiveHeaders,
      });
    }
  } catch (error) {
    const mapped = toNetguardError(error, urlHostname(hop.url), deadline);
    deadline.clear();
    throw mapped;
  }
}

export function createOutboundClient(
  policy: OutboundPolicy,
  options: DispatcherOptions = {},
): OutboundClient {
  const resolved = resolvePolicy(policy);
  const dispatcher = createGuardedDispatcher(policy, options);
  return {
    fetch: (input, init) => guardedRequest(resolved, dispatcher, input, init),
    request: (input, options) => guardedDispatch(resolved, dispatcher, input, options),
    dispatcher,
    close: () => dispatcher.close(),
  };
}

const sharedClients = new WeakMap<OutboundPolicy, OutboundClient>();

/** One-off convenience: a client per policy object is created once and reused (pooled sockets). */
export function guardedFetch(
  input: string | URL,
  init: GuardedRequestInit | undefined,
  policy: OutboundPolicy,
  options?: DispatcherOptions,
): Promise<Response> {
  let client = sharedClients.get(policy);
  if (client === undefined) {
    client = createOutboundClient(policy, options);
    sharedClients.set(policy, client);
  }
  return client.fetch(input, init);
}
