// One REST request for the built-in connectors: guarded fetch, the call's deadline, a bounded
// body read, and typed errors. The credential travels only in the headers given here and is
// marked sensitive so netguard drops it on a cross-origin redirect.
import { readBodyCapped, discardBody } from "./body.ts";
import type { CallDeadline } from "./deadline.ts";
import type { OutboundFetch } from "./deps.ts";
import { toConnectorError, upstreamStatusError } from "./errors.ts";

export interface RestRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  sensitiveHeaders?: string[];
}

export interface RestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** False when the body was longer than the read limit and was cut. */
  complete: boolean;
}

/** How much of a body is read before it is cut: enough to re-serialise JSON compactly. */
export function readLimitFor(maxResultBytes: number): number {
  return Math.min(Math.max(maxResultBytes * 4, 256 * 1024), 8 * 1024 * 1024);
}

export async function restRequest(
  fetch: OutboundFetch,
  request: RestRequest,
  options: {
    deadline: CallDeadline;
    readLimit: number;
    service: string;
    passStatuses?: readonly number[];
  },
): Promise<RestResponse> {
  const pass = options.passStatuses ?? [];
  try {
    const init = {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: options.deadline.signal,
      // netguard options (ignored by a plain fetch).
      sensitiveHeaders: request.sensitiveHeaders ?? [],
      maxResponseBytes: options.readLimit * 2,
    } as RequestInit;
    const response = await fetch(request.url, init);
    if (!response.ok && !pass.includes(response.status)) {
      await discardBody(response);
      throw upstreamStatusError(options.service, response.status);
    }
    const { text, complete } = await readBodyCapped(response, options.readLimit);
    return { status: response.status, headers: response.headers, text, complete };
  } catch (error) {
    throw toConnectorError(error, options.service, options.deadline);
  }
}

/** JSON re-serialised compactly when the body was complete; the raw text otherwise. */
export function compactJson(response: RestResponse): string {
  if (!response.complete) return response.text;
  try {
    return JSON.stringify(JSON.parse(response.text));
  } catch {
    return response.text;
  }
}
