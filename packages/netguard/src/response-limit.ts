// The response size cap of the node-stream request path, as an undici interceptor: it counts
// bytes as undici hands them over and aborts the request with our typed error past the limit.
// Counting here instead of in a pass-through stream keeps the body undici's own Readable, which
// saves a stream hop per response (a measurable share of the gateway's added latency).
import type { Dispatcher } from "undici";
import { tooLarge } from "./errors.ts";

/** A request option read by the interceptor: the byte limit and the host named in the error. */
export const RESPONSE_LIMIT = "netguardResponseLimit";

export interface ResponseLimit {
  maxBytes: number;
  host: string;
}

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

function limited(inner: Handler, limit: ResponseLimit): Handler {
  let received = 0;
  return {
    onRequestStart: (controller, context: unknown) => inner.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, status, headers, socket) =>
      inner.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart: (controller, status, headers, message) =>
      inner.onResponseStart?.(controller, status, headers, message),
    onResponseData(controller: Controller, chunk: Buffer) {
      received += chunk.byteLength;
      if (received > limit.maxBytes) {
        controller.abort(tooLarge(limit.host, limit.maxBytes));
        return;
      }
      inner.onResponseData?.(controller, chunk);
    },
    onResponseEnd: (controller, trailers) => inner.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => inner.onResponseError?.(controller, error),
  };
}

export const responseLimit: Dispatcher.DispatcherComposeInterceptor =
  (dispatch) => (options, handler) => {
    const limit = (options as unknown as Record<string, ResponseLimit | undefined>)[RESPONSE_LIMIT];
    return dispatch(options, limit ? limited(handler, limit) : handler);
  };
