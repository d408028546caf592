// The provider an admitted request goes to, checked after admission (so each refusal here
// releases the reservation like any other): the run's workspace has one, it serves this path,
// the owner allows the requested model; and its API key, decrypted only now.
import { decryptField } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";
import type { Admitted } from "./admission.ts";
import type { GatewayDeps } from "./options.ts";
import type { Route } from "./routes.ts";

export type Provider = NonNullable<Admitted["provider"]>;

/** The admitted run's provider, when it may serve this route and model. */
export function servingProvider(route: Route, admitted: Admitted, model: unknown): Provider {
  const provider = admitted.provider;
  if (!provider) {
    throw new AppError(
      "PRECONDITION_FAILED",
      "The workspace has no model provider; the workspace owner must add one.",
      { reason: "NO_MODEL_PROVIDER" },
    );
  }
  if (provider.kind !== route.family) {
    throw new AppError("NOT_FOUND", "This path is not served for the run's model provider.", {
      reason: "PATH_NOT_FOR_PROVIDER",
    });
  }
  refuseUnlistedModel(provider.allowedModels, model);
  return provider;
}

/**
 * The owner's allowed models for the provider (empty: any). Checked on the body the gateway
 * parsed and forwards.
 */
function refuseUnlistedModel(allowed: readonly string[], model: unknown): void {
  if (allowed.length === 0 || (typeof model === "string" && allowed.includes(model))) return;
  const named = typeof model === "string" ? `"${model.slice(0, 100)}"` : "(none)";
  throw new AppError(
    "FORBIDDEN",
    `The model ${named} is not allowed for this workspace's model provider; use one of: ${allowed.join(", ")}, or ask the workspace owner to allow it.`,
    { reason: "MODEL_NOT_ALLOWED" },
  );
}

/** The provider's key, registered with the request's masker scope so no log line shows it. */
export async function providerKey(
  deps: GatewayDeps,
  workspaceId: string,
  provider: Provider,
): Promise<string> {
  try {
    const key = await decryptField(deps.keyring, provider.apiKeyCiphertext, {
      workspaceId,
      table: "ModelProvider",
      rowId: provider.id,
      field: "apiKeyCiphertext",
    });
    deps.masker.add(key);
    return key;
  } catch (cause) {
    throw new AppError(
      "BAD_GATEWAY",
      "The workspace's model provider key cannot be decrypted; the workspace owner must enter it again.",
      { reason: "PROVIDER_KEY_UNREADABLE", cause },
    );
  }
}
