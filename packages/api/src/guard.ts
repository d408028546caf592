// Request hygiene before tRPC runs. tRPC alone executes a mutation that arrives as a cross-site
// `multipart/form-data` POST (a plain HTML form can send one, with the victim's cookie), so
// every request that is not a GET/HEAD must be JSON and come from our own origin; anything
// else is refused here, before any procedure runs. Bodies are size-capped (declared length
// here; streamed length by tRPC's maxBodySize).
import type { IncomingMessage } from "node:http";

export interface GuardOptions {
  /** The origin browsers use for the web app, e.g. https://secondshift.example.com */
  publicOrigin: string;
  maxBodyBytes: number;
}

export interface Refusal {
  status: number;
  code: "FORBIDDEN" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE";
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

export function guardRequest(req: IncomingMessage, options: GuardOptions): Refusal | null {
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
