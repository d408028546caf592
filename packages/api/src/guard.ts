// Request hygiene before tRPC runs. tRPC alone executes a mutation that arrives as a cross-site
// `multipart/form-data` POST (a plain HTML form can send one, with the victim's cookie), so
// every request that is not a GET/HEAD must be JSON and come from our own origin; anything
// else is refused here, before any procedure runs. Bodies are size-capped (declared length
// here; streamed length by tRPC's maxBodySize). Batches are capped and never carry an auth call
// (the vocabulary's api-batching.ts): a request costs at most one password hash.
import type { IncomingMessage } from "node:http";
import { MAX_BATCH_CALLS, mustCallAlone } from "@secondshift/vocabulary";

export interface GuardOptions {
  /** The origin browsers use for the web app, e.g. https://secondshift.example.com */
  publicOrigin: string;
  maxBodyBytes: number;
  /** Where tRPC's procedures are served, e.g. /api/trpc/ */
  trpcBasePath: string;
}

export interface Refusal {
  status: number;
  code: "BAD_REQUEST" | "FORBIDDEN" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE";
  message: string;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function sameOrigin(req: IncomingMessage, publicOrigin: string): boolean {
  const origin = header(req, "origin");
  const fetchSite = header(req, "sec-fetch-site");
  if (fetchSite !== undefined && fetchSite !== "same-origin") return false;
  if (origin !== undefined) return origin === publicOrigin;
  return fetchSite === "same-origin";
}

function isJson(req: IncomingMessage): boolean {
  const type = header(req, "content-type") ?? "";
  return type.split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** The procedures a batched tRPC request names; null when it is not a batch. */
function batchedPaths(req: IncomingMessage, basePath: string): string[] | null {
  const url = new URL(req.url ?? "/", "http://local");
  if (!url.pathname.startsWith(basePath) || url.searchParams.get("batch") !== "1") return null;
  return decodeURIComponent(url.pathname.slice(basePath.length)).split(",");
}

function refuseBatch(req: IncomingMessage, options: GuardOptions): Refusal | null {
  const paths = batchedPaths(req, options.trpcBasePath);
  if (paths === null) return null;
  if (paths.length > MAX_BATCH_CALLS) {
    return {
      status: 400,
      code: "BAD_REQUEST",
      message: `A batch may carry at most ${MAX_BATCH_CALLS} calls; send the rest in another request.`,
    };
  }
  if (paths.length > 1 && paths.some(mustCallAlone)) {
    return {
      status: 400,
      code: "BAD_REQUEST",
      message: "Send sign-in, setup and invitation calls one at a time, not in a batch.",
    };
  }
  return null;
}

export function guardRequest(req: IncomingMessage, options: GuardOptions): Refusal | null {
  const batch = refuseBatch(req, options);
  if (batch) return batch;
  if (req.method === "GET" || req.method === "HEAD") return null;
  if (!sameOrigin(req, options.publicOrigin)) {
    return {
      status: 403,
      code: "FORBIDDEN",
      message: "Cross-site requests are refused. Use the SecondShift web app.",
    };
  }
  if (!isJson(req)) {
    return {
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Send the request as content-type: application/json.",
    };
  }
  const length = Number(header(req, "content-length") ?? 0);
  if (length > options.maxBodyBytes) {
    return {
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      message: `Request bodies are limited to ${options.maxBodyBytes} bytes.`,
    };
  }
  return null;
}
