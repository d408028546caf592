// The outbound client every service uses: fetch with the URL checks, the guarded dispatcher,
// our own redirect loop (re-checking every hop), and the size and time limits.
//
// Most requests (a string, bytes or form body, or none) do not go through undici's fetch: they
// are sent with `dispatcher.request()` and answered with a Response built here, with the same
// default headers and content decoding as fetch. fetch's own machinery (request object, web
// stream per body, promise hops per chunk) cost ~0.3 ms per request on loopback, and the
// re-wrapped body another ~0.1 ms. Other bodies (streams, blobs, form data) and fetch-only
// options (cache, keepalive, ...) still go through undici's fetch.
import {
  fetch as undiciFetch,
  Headers,
  Response,
  type Agent,
  type Dispatcher,
  type RequestInit,
} from "undici";
import { createGuardedDispatcher, type DispatcherOptions } from "./dispatcher.ts";
import { startDeadline, type Deadline } from "./deadline.ts";
import { contentDecoders, limitBody, nodeBodyStream } from "./body.ts";
import { pipeline, type Readable } from "node:stream";
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
  // The request() path reports undici's own errors directly.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("UND_ERR_") && code !== "UND_ERR_INVALID_ARG")
    return connectFailed(host, error);
  return error;
}

/** What one hop answered, before the caller sees it. */
interface HopAnswer {
  status: number;
  location: string | null;
  /** Closes an answer that will not be read (a redirect that is followed). */
  discard(): Promise<void>;
  /** The caller's Response: a size- and time-limited body, the final URL. */
  respond(url: URL, maxBytes: number, deadline: Deadline): Response;
}

const noop = (): void => undefined;

// Statuses whose responses have no body (fetch standard), and the request() path's methods.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REQUEST_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
// Init members the request() path implements; anything else set sends the request with fetch.
const REQUEST_INIT = new Set([
  "method",
  "headers",
  "body",
  "signal",
  "redirect",
  "sensitiveHeaders",
  "timeoutMs",
  "maxResponseBytes",
]);

/** A body the request() path sends as fetch would, with fetch's default content type. */
function simpleBody(
  body: unknown,
): { bytes: string | Uint8Array | undefined; contentType: string | null } | null {
  if (body === undefined || body === null) return { bytes: undefined, contentType: null };
  if (typeof body === "string") return { bytes: body, contentType: "text/plain;charset=UTF-8" };
  if (body instanceof URLSearchParams)
    return {
      bytes: body.toString(),
      contentType: "application/x-www-form-urlencoded;charset=UTF-8",
    };
  // Copied when sent, as fetch does: a caller may reuse its buffer.
  if (body instanceof ArrayBuffer)
    return { bytes: new Uint8Array(body.slice(0)), contentType: null };
  if (ArrayBuffer.isView(body))
    return {
      bytes: new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)),
      contentType: null,
    };
  return null;
}

/** The header list fetch would send for this hop (its defaults, minus Host). */
function requestHeaders(
  hop: HopRequest,
  contentType: string | null,
  hasBody: boolean,
): Record<string, string> {
  const out: Record<string, string> = {};
  hop.headers.forEach((value, name) => {
    out[name] = value;
  });
  if (contentType !== null && out["content-type"] === undefined) out["content-type"] = contentType;
  out.accept ??= "*/*";
  out["accept-language"] ??= "*";
  out["sec-fetch-mode"] = "cors";
  out["user-agent"] ??= "undici";
  out["accept-encoding"] ??=
    out.range !== undefined
      ? "identity"
      : hop.url.protocol === "https:"
        ? "br, gzip, deflate"
        : "gzip, deflate";
  if (!hasBody && (hop.method === "POST" || hop.method === "PUT")) out["content-length"] ??= "0";
  delete out.host;
  return out;
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The Response for a request() answer: fetch's header list, decoding and body limits. */
function nodeResponse(
  data: Dispatcher.ResponseData,
  method: string,
  url: URL,
  maxBytes: number,
  deadline: Deadline,
): Response {
  const host = urlHostname(url);
  const declared = Number(headerValue(data.headers["content-length"]) ?? "0");
  if (declared > maxBytes) {
    const error = tooLarge(host, maxBytes);
    deadline.abort(error);
    throw error;
  }
  let body: ReadableStream<Uint8Array> | null = null;
  if (method === "HEAD" || NULL_BODY_STATUSES.has(data.statusCode)) {
    data.body.resume();
    deadline.clear();
  } else {
    const decoders = contentDecoders(headerValue(data.headers["content-encoding"]));
    if (decoders instanceof Error) {
      deadline.abort(decoders);
      throw decoders;
    }
    const source: Readable =
      decoders.length === 0
        ? data.body
        : (pipeline([data.body, ...decoders], noop) as unknown as Readable);
    body = nodeBodyStream(source, host, maxBytes, deadline);
  }
  try {
    const response = new Response(body, { status: data.statusCode, statusText: data.statusText });
    for (const [name, value] of Object.entries(data.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) response.headers.append(name, item);
      else response.headers.append(name, value);
    }
    Object.defineProperty(response, "url", { value: url.href });
    return response;
  } catch (error) {
    // A status or header value a Response cannot carry: nobody will read this body.
    data.body.destroy();
    throw error;
  }
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

async function send(
  hop: HopRequest,
  init: GuardedRequestInit,
  dispatcher: Agent,
  signal: AbortSignal,
): Promise<HopAnswer> {
  const simple = simpleBody(hop.body);
  if (
    simple !== null &&
    REQUEST_METHODS.has(hop.method) &&
    Object.entries(init).every(([key, value]) => value === undefined || REQUEST_INIT.has(key))
  ) {
    const data = await dispatcher.request({
      origin: hop.url.origin,
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method,
      headers: requestHeaders(hop, simple.contentType, simple.bytes !== undefined),
      body: simple.bytes,
      signal,
    });
    // Errors reach the caller through the web stream; this keeps an unread body's from throwing.
    data.body.on("error", noop);
    return {
      status: data.statusCode,
      location: headerValue(data.headers.location),
      discard: () => {
        data.body.destroy();
        return Promise.resolve();
      },
      respond: (url, maxBytes, deadline) => nodeResponse(data, hop.method, url, maxBytes, deadline),
    };
  }
  const response = await sendWithFetch(hop, init, dispatcher, signal);
  return {
    status: response.status,
    location: response.headers.get("location"),
    discard: () => response.body?.cancel().catch(noop) ?? Promise.resolve(),
    respond: (url, maxBytes, deadline) => wrapResponse(response, url, maxBytes, deadline),
  };
}

function sendWithFetch(
  hop: HopRequest,
  init: GuardedRequestInit,
  dispatcher: Agent,
  signal: AbortSignal,
) {
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
      const answer = await send(hop, init, dispatcher, deadline.signal);
      const location = answer.location;
      const mode = init.redirect ?? "follow";
      if (!REDIRECT_STATUSES.has(answer.status) || location === null || mode === "manual") {
        return answer.respond(hop.url, maxBytes, deadline);
      }
      await answer.discard();
      hop = followRedirect(hop, answer.status, location, {
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
