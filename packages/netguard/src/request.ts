// The node-stream form of the guarded client, for hot paths (the model gateway's proxy). Same
// guarantees as `fetch` — URL checks, the guarded dispatcher's connect hook, our own redirect
// loop re-checking every hop, credentials dropped across origins, one total deadline, a size
// cap — but built on undici's `dispatcher.request()` and a Node Readable, which costs a
// fraction of WHATWG fetch and its web streams (measured: ~0.15 ms added per proxied request on
// loopback instead of ~0.9 ms).
import { Headers, type Agent, type Dispatcher } from "undici";
import type { Readable } from "node:stream";
import type { IncomingHttpHeaders } from "node:http";
import { startDeadline, type Deadline } from "./deadline.ts";
import { connectFailed, isNetguardError, tooLarge } from "./errors.ts";
import type { ResolvedPolicy } from "./policy.ts";
import { RESPONSE_LIMIT, responseLimit, type ResponseLimit } from "./response-limit.ts";
import { followRedirect, REDIRECT_STATUSES, type HopRequest } from "./redirect.ts";
import { checkUrl, parseUrl, urlHostname } from "./target.ts";

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Always replayable here, so 307/308 can resend it. */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** "follow" (default) re-checks every hop; "manual" returns the 3xx; "error" refuses it. */
  redirect?: "follow" | "manual" | "error";
  /** Extra headers to drop on a cross-origin redirect (Authorization and Cookie always are). */
  sensitiveHeaders?: readonly string[];
  /** Overrides the policy's total deadline (headers and body together). */
  timeoutMs?: number;
  /** Overrides the policy's response size limit. */
  maxResponseBytes?: number;
}

export interface GuardedResponse {
  status: number;
  /** Lower-case names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** Size- and time-limited; errors carry netguard reasons (TIMEOUT, RESPONSE_TOO_LARGE). */
  body: Readable;
  /** The final URL, after redirects. */
  url: string;
}

type UndiciBody = Readable & { dump?: () => Promise<void> };

function mapError(error: unknown, host: string, deadline: Deadline): unknown {
  if (deadline.signal.aborted) return deadline.signal.reason as unknown;
  if (isNetguardError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  // A caller bug (bad header, bad body) surfaces as it is; network failures get our reason.
  if (code === "UND_ERR_INVALID_ARG") return error;
  return connectFailed(host, error);
}

const composed = new WeakMap<Agent, Dispatcher>();

/** The guarded agent with the size-cap interceptor, composed once per agent. */
function withLimit(agent: Agent): Dispatcher {
  let dispatcher = composed.get(agent);
  if (dispatcher === undefined) {
    dispatcher = agent.compose(responseLimit);
    composed.set(agent, dispatcher);
  }
  return dispatcher;
}

/**
 * The deadline and the size cap both end the body through undici itself (the deadline's signal
 * is the request's signal; the cap aborts from the interceptor), so the body errors with our
 * typed reason and keeps undici's own backpressure. Only the timer is ours to stop.
 */
function finishWithBody(body: UndiciBody, deadline: Deadline): Readable {
  body.once("close", () => deadline.clear());
  body.once("end", () => deadline.clear());
  return body;
}

/** Closes a body we will not read; undici reports that as an abort error, which is expected. */
function discard(body: UndiciBody): void {
  body.on("error", () => undefined);
  body.destroy();
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

export async function guardedDispatch(
  policy: ResolvedPolicy,
  dispatcher: Agent,
  input: string | URL,
  options: GuardedRequestOptions = {},
): Promise<GuardedResponse> {
  const first = parseUrl(input);
  const deadline = startDeadline(
    urlHostname(first),
    options.timeoutMs ?? policy.timeoutMs,
    options.signal,
  );
  const maxBytes = options.maxResponseBytes ?? policy.maxResponseBytes;
  const mode = options.redirect ?? "follow";
  let hop: HopRequest = {
    url: first,
    method: (options.method ?? "GET").toUpperCase(),
    headers: new Headers(options.headers),
    body: options.body,
  };
  try {
    for (let redirects = 0; ; redirects += 1) {
      checkUrl(hop.url, policy);
      const host = urlHostname(hop.url);
      const requestOptions: Dispatcher.RequestOptions = {
        origin: hop.url.origin,
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method,
        headers: headerRecord(hop.headers),
        body: hop.body as string | Uint8Array | undefined,
        signal: deadline.signal,
      };
      const limit: ResponseLimit = { maxBytes, host };
      const response = await withLimit(dispatcher).request(
        Object.assign(requestOptions, { [RESPONSE_LIMIT]: limit }),
      );
      const body = response.body as UndiciBody;
      const location = response.headers.location;
      if (
        !REDIRECT_STATUSES.has(response.statusCode) ||
        typeof location !== "string" ||
        mode === "manual"
      ) {
        const declared = Number(response.headers["content-length"] ?? "0");
        if (declared > maxBytes) {
          discard(body);
          throw tooLarge(host, maxBytes);
        }
        return {
          status: response.statusCode,
          headers: response.headers,
          body: finishWithBody(body, deadline),
          url: hop.url.href,
        };
      }
      discard(body);
      hop = followRedirect(hop, response.statusCode, location, {
        mode,
        followed: redirects,
        maxRedirects: policy.maxRedirects,
        sensitiveHeaders: options.sensitiveHeaders,
      });
    }
  } catch (error) {
    const mapped = mapError(error, urlHostname(hop.url), deadline);
    deadline.clear();
    throw mapped;
  }
}
