// Every error the gateway answers with is JSON, and none carries a secret (P04): our own
// errors are AppErrors with fixed messages; a provider's error is rebuilt from its type and
// message only (masked for every registered secret, length-capped) in the provider's own
// format so the SDKs still parse it, and its status is passed on except where it would mislead
// the agent loop (a provider rejecting *our* key is the operator's problem, not the run's).
import type { ServerResponse } from "node:http";
import { AppError, isAppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { isNetguardError } from "@secondshift/netguard";
import type { ProviderFamily } from "./routes.ts";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: AppError): void {
  sendJson(res, error.httpStatus, error.toJSON());
}

/** Maps anything thrown while talking to the provider to a clean AppError. */
export function upstreamFailure(error: unknown): AppError {
  if (isNetguardError(error, "TIMEOUT")) {
    return new AppError(
      "GATEWAY_TIMEOUT",
      "The model provider did not answer in time; retry later.",
      { reason: "PROVIDER_TIMEOUT" },
    );
  }
  if (isNetguardError(error)) {
    // Netguard's messages name the host only and say what to do; keep its reason.
    return new AppError("BAD_GATEWAY", `The model provider cannot be reached: ${error.message}`, {
      reason: `PROVIDER_${error.reason ?? "UNREACHABLE"}`,
    });
  }
  if (isAppError(error)) return error;
  return new AppError("BAD_GATEWAY", "The model provider cannot be reached; retry later.", {
    reason: "PROVIDER_UNREACHABLE",
  });
}

const MAX_MESSAGE = 1000;

function providerErrorParts(text: string): { type: string; message: string } {
  try {
    const body = JSON.parse(text) as {
      error?: { type?: unknown; message?: unknown; code?: unknown } | string;
      message?: unknown;
    };
    const err = typeof body.error === "object" && body.error !== null ? body.error : undefined;
    const message = err?.message ?? (typeof body.error === "string" ? body.error : body.message);
    const type = err?.type ?? err?.code;
    return {
      type: typeof type === "string" && /^[\w.-]{1,64}$/.test(type) ? type : "api_error",
      message: typeof message === "string" ? message : "The model provider returned an error.",
    };
  } catch {
    return { type: "api_error", message: "The model provider returned an error." };
  }
}

/** A provider error response, cleaned. `text` is the provider's body (already size-capped). */
export function providerError(
  family: ProviderFamily,
  status: number,
  text: string,
  masker: SecretMasker,
): { status: number; body: unknown } {
  const parts = providerErrorParts(text);
  let message = masker.mask(parts.message).slice(0, MAX_MESSAGE);
  let type = parts.type;
  let clientStatus = status;
  if (status === 401 || status === 403) {
    clientStatus = 502;
    type = "api_error";
    message =
      "The model provider rejected the workspace's provider key. The workspace owner must update the model provider settings.";
  } else if (status < 400) {
    clientStatus = 502;
  }
  const body =
    family === "ANTHROPIC"
      ? {
          type: "error",
          error: { type, message },
          reason: "PROVIDER_ERROR",
          provider_status: status,
        }
      : {
          error: { message, type, code: null, param: null },
          reason: "PROVIDER_ERROR",
          provider_status: status,
        };
  return { status: clientStatus, body };
}
