// Owner: check a model provider's stored key with one cheap call — list models (Anthropic and
// OpenAI both serve `GET /v1/models`) — through netguard like every outbound call (C21). The
// key is decrypted for this one request only and never appears in the answer, an error or the
// audit row (C24 keeps it out of runs; the owner's own check is the one other reader).
import { decryptField } from "@secondshift/crypto";
import type { ProviderKind } from "@secondshift/db";
import { AppError, isAppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, nowOf, requireRole, requireService, type ActorContext } from "../context.ts";

const ANTHROPIC_VERSION = "2023-06-01";
const VERIFY_TIMEOUT_MS = 10_000;
/** Enough to pick allowed models from; a provider may list many more. */
const MAX_MODELS = 500;

export type VerifyFailure =
  "KEY_REFUSED" | "UNREACHABLE" | "ADDRESS_REFUSED" | "NOT_A_PROVIDER" | "PROVIDER_ERROR";

/** netguard's refusals by policy: the address was not tried, so it is not "unreachable". */
const POLICY_REFUSALS = new Set(["ADDRESS_NOT_PUBLIC", "HOST_NOT_ALLOWED", "HTTPS_REQUIRED"]);

export type ProviderVerification =
  | { ok: true; verifiedAt: Date; models: string[] }
  | { ok: false; reason: VerifyFailure; message: string };

/** The gateway's rule: a base ending in /v1 (OpenAI-compatible form) is not doubled. */
export function modelsUrl(baseUrl: string): string {
  let base = baseUrl.replace(/\/+$/, "");
  if (base.endsWith("/v1")) base = base.slice(0, -3);
  return `${base}/v1/models`;
}

function authHeaders(kind: ProviderKind, key: string): Record<string, string> {
  return kind === "ANTHROPIC"
    ? { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION, accept: "application/json" }
    : { authorization: `Bearer ${key}`, accept: "application/json" };
}

const failure = (
  reason: VerifyFailure,
  message: string,
): Extract<ProviderVerification, { ok: false }> => ({
  ok: false,
  reason,
  message,
});

/** Both providers answer `{ data: [{ id }, …] }`; anything else is not their models list. */
function modelIds(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data
    .map((m) => (m as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string")
    .slice(0, MAX_MODELS);
}

type Answer = { ok: true; models: string[] } | Extract<ProviderVerification, { ok: false }>;

async function askProvider(
  fetch: NonNullable<ActorContext["outbound"]>,
  provider: { kind: ProviderKind; baseUrl: string },
  key: string,
): Promise<Answer> {
  const who = `The provider at ${new URL(provider.baseUrl).host}`;
  let response: Response;
  try {
    response = await fetch(modelsUrl(provider.baseUrl), {
      headers: authHeaders(provider.kind, key),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch (error) {
    if (isAppError(error) && POLICY_REFUSALS.has(error.reason ?? ""))
      return failure("ADDRESS_REFUSED", `${who} is not allowed: ${error.message}`);
    // netguard's errors name the host and the rule, never a header; other causes are withheld.
    const why = isAppError(error)
      ? error.message
      : error instanceof Error && error.name === "TimeoutError"
        ? `it did not answer within ${VERIFY_TIMEOUT_MS / 1000} s`
        : "the connection failed";
    return failure("UNREACHABLE", `${who} could not be reached: ${why}`);
  }
  // The body is read only from a success: an error page may echo request headers.
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined);
    return failure(
      "KEY_REFUSED",
      `${who} refused the key (HTTP ${response.status}): the key was refused. Replace it with a valid key.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return response.status === 404
      ? failure(
          "NOT_A_PROVIDER",
          `${who} has no ${provider.kind === "ANTHROPIC" ? "Anthropic" : "OpenAI"}-style /v1/models (HTTP 404); check the base URL.`,
        )
      : failure("PROVIDER_ERROR", `${who} answered HTTP ${response.status}; try again later.`);
  }
  const models = modelIds(await response.json().catch(() => null));
  if (!models)
    return failure(
      "NOT_A_PROVIDER",
      `${who} did not answer with a models list; check the base URL.`,
    );
  return { ok: true, models };
}

export async function verifyModelProvider(
  ctx: ActorContext,
  input: { providerId: string },
): Promise<ProviderVerification> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const outbound = requireService(ctx, "outbound");
  const provider = await ctx.db.modelProvider.findFirst({
    where: { id: input.providerId, workspaceId: ctx.workspaceId },
    select: { id: true, name: true, kind: true, baseUrl: true, apiKeyCiphertext: true },
  });
  if (!provider) throw notFound("Model provider");
  const key = await decryptField(keyring, provider.apiKeyCiphertext, {
    workspaceId: ctx.workspaceId,
    table: "ModelProvider",
    rowId: provider.id,
    field: "apiKeyCiphertext",
  }).catch((cause: unknown) => {
    throw new AppError(
      "PRECONDITION_FAILED",
      "The stored key cannot be decrypted; replace the provider's key.",
      { reason: "PROVIDER_KEY_UNREADABLE", cause },
    );
  });
  const answer = await askProvider(outbound, provider, key);
  const result: ProviderVerification = answer.ok
    ? { ok: true, verifiedAt: nowOf(ctx), models: answer.models }
    : answer;
  await ctx.db.$transaction(async (tx) => {
    if (result.ok)
      await tx.modelProvider.update({
        where: { id: provider.id },
        data: { verifiedAt: result.verifiedAt },
      });
    await recordAudit(tx, {
      workspaceId: ctx.workspaceId,
      actorType: "USER",
      actorId: ctx.actor.userId,
      action: "provider.verified",
      targetType: "ModelProvider",
      targetId: provider.id,
      targetLabel: provider.name,
      outcome: result.ok ? "ok" : result.reason.toLowerCase(),
    });
  });
  return result;
}
