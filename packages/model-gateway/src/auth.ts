// The run token (C15): accepted as `Authorization: Bearer ss_run_…` (OpenAI SDK) or
// `x-api-key: ss_run_…` (Anthropic SDK), so both official SDKs work with the gateway as base
// URL. Only its SHA-256 hash is ever compared with the database.
import type { IncomingHttpHeaders } from "node:http";
import { hashToken, looksLikeToken } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";

export const invalidToken = () =>
  new AppError(
    "UNAUTHORIZED",
    "The run token is missing, invalid, expired or revoked, or its run is not active.",
    {
      reason: "RUN_TOKEN_INVALID",
    },
  );

/** The presented run token's hash; throws 401 when no well-formed run token is present. */
export function presentedTokenHash(headers: IncomingHttpHeaders): Buffer {
  const auth = headers.authorization;
  const candidates = [
    auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined,
    headers["x-api-key"],
  ];
  for (const value of candidates) {
    if (typeof value === "string" && looksLikeToken("run", value)) return hashToken(value);
  }
  throw invalidToken();
}
