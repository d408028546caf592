// What the gateway is built from. Everything is passed in by the app (apps/gateway), which
// reads the environment; this package reads none.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Keyring } from "@secondshift/crypto";
import type { Db, Pool } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import type { GuardedResponse } from "@secondshift/netguard";
import type { GatewayMetrics } from "./metrics.ts";

/** The outbound HTTP client; in production `createOutboundClient(policy)` from @secondshift/netguard. */
export interface Outbound {
  request(
    url: string,
    init: {
      method: string;
      headers: Record<string, string>;
      body: Buffer;
      signal: AbortSignal;
      redirect: "error";
      timeoutMs: number;
      maxResponseBytes: number;
    },
  ): Promise<GuardedResponse>;
}

export interface GatewayLimits {
  /** Request body cap (GATEWAY_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** Total time for one upstream call, headers and body (GATEWAY_UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs: number;
  /** Requests one run may have in flight at once (GATEWAY_MAX_PARALLEL_PER_RUN). */
  maxParallelPerRun: number;
  /** Upstream response cap; default 64 MiB. */
  maxResponseBytes?: number;
  /** Output bound set on requests that name none (OpenAI may omit it); default 8192. */
  defaultMaxOutputTokens?: number;
}

/** What the operator lets through beyond what the agent loop needs (default: nothing). */
export interface ForwardingPolicy {
  /** `anthropic-beta` values a request may ask for (GATEWAY_ANTHROPIC_BETA). */
  anthropicBetas?: readonly string[];
  /** Provider-side capabilities a request may use, by name (GATEWAY_ALLOWED_PROVIDER_TOOLS). */
  allowedProviderTools?: readonly string[];
}

export interface GatewayOptions {
  db: Db;
  /** The pool `db` runs on (`createDatabase`): admission and settlement are prepared on it. */
  pool: Pool;
  keyring: Keyring;
  outbound: Outbound;
  logger: Logger;
  /** The masker the logger was created with; every decrypted provider key is registered in it. */
  masker: SecretMasker;
  limits: GatewayLimits;
  forwarding?: ForwardingPolicy;
  /** Request latency and tokens are counted here when given (createGatewayMetrics). */
  metrics?: GatewayMetrics;
  /** The app's readiness route (`readyzRoute` of @secondshift/service): true when it answered. */
  readyz?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface ResolvedForwarding {
  anthropicBetas: ReadonlySet<string>;
  allowedProviderTools: ReadonlySet<string>;
}

export interface GatewayDeps extends Omit<GatewayOptions, "limits" | "forwarding"> {
  limits: Required<GatewayLimits>;
  forwarding: ResolvedForwarding;
}

export function resolveForwarding(policy: ForwardingPolicy = {}): ResolvedForwarding {
  return {
    anthropicBetas: new Set(policy.anthropicBetas ?? []),
    allowedProviderTools: new Set(policy.allowedProviderTools ?? []),
  };
}

export function resolveLimits(limits: GatewayLimits): Required<GatewayLimits> {
  return {
    maxResponseBytes: 64 * 1024 * 1024,
    defaultMaxOutputTokens: 8192,
    ...limits,
  };
}
