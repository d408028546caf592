// One model request, start to end: route (404) → token shape (401) → body (413/400) → admit
// (401/402/429: auth, run state, parallel limit and budget reservation in one round trip) →
// provider and its key → forward → settle (once the response has gone out) → one log line.
// Nothing reaches the provider before admission has succeeded.
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, isAppError } from "@secondshift/errors";
import { admit, type Admitted } from "./admission.ts";
import { recordRefused, recordServed } from "./after-response.ts";
import { presentedTokenHash } from "./auth.ts";
import { sendError } from "./errors.ts";
import { anthropicBetas } from "./headers.ts";
import type { GatewayDeps } from "./options.ts";
import { providerKey, servingProvider } from "./provider-access.ts";
import { forward, type ForwardResult } from "./proxy.ts";
import { readBody } from "./read-body.ts";
import { inspectRequest, upstreamBody, type InspectedRequest } from "./request-body.ts";
import type { Route } from "./routes.ts";

export async function handleModelRequest(
  deps: GatewayDeps,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The provider key is masked while a request uses it and leaves the masker after the last one
  // (per-request scopes share a live value), so a rotated key does not stay forever (P02).
  const secrets = deps.masker.scope();
  try {
    await handleInScope({ ...deps, masker: secrets }, route, req, res);
  } finally {
    secrets.close();
  }
}

async function handleInScope(
  deps: GatewayDeps,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const admission = await attempt(() => readAndAdmit(deps, route, req));
  if (!admission.ok) {
    const status = sendFailure(deps, route, res, admission.error);
    recordRefused(deps, route, status, started);
    return;
  }
  const request = admission.value;
  const forwarded = await attempt(() => forwardAdmitted(deps, { route, req, res }, request));
  const result = forwarded.ok ? forwarded.value : null;
  const status = forwarded.ok
    ? (forwarded.value.error?.httpStatus ?? res.statusCode)
    : sendFailure(deps, route, res, forwarded.error);
  await recordServed(deps, route, { ...request, result, status }, started);
}

/** A request read, checked and admitted: budget is reserved for it from here on. */
interface AdmittedRequest {
  inspected: InspectedRequest;
  admitted: Admitted;
  /** The checked `anthropic-beta` value to forward (Anthropic paths only). */
  anthropicBeta: string | null;
}

async function readAndAdmit(
  deps: GatewayDeps,
  route: Route,
  req: IncomingMessage,
): Promise<AdmittedRequest> {
  const tokenHash = presentedTokenHash(req.headers);
  const anthropicBeta =
    route.family === "ANTHROPIC"
      ? anthropicBetas(req.headers, deps.forwarding.anthropicBetas)
      : null;
  const raw = await readBody(req, deps.limits.maxBodyBytes);
  const inspected = inspectRequest(
    route,
    raw,
    deps.limits.defaultMaxOutputTokens,
    deps.forwarding.allowedProviderTools,
  );
  const admitted = await admit(deps, {
    tokenHash,
    metered: route.metered,
    inputEstimate: inspected.inputEstimate,
    requestedOutput: inspected.requestedOutput,
    choices: inspected.choices,
    maxParallel: deps.limits.maxParallelPerRun,
  });
  return { inspected, admitted, anthropicBeta };
}

async function forwardAdmitted(
  deps: GatewayDeps,
  exchange: { route: Route; req: IncomingMessage; res: ServerResponse },
  { inspected, admitted, anthropicBeta }: AdmittedRequest,
): Promise<ForwardResult> {
  const { route, req, res } = exchange;
  const provider = servingProvider(route, admitted, inspected.json.model);
  const key = await providerKey(deps, admitted.workspaceId, provider);
  return forward(deps, req, res, {
    route,
    family: provider.kind,
    baseUrl: provider.baseUrl,
    providerKey: key,
    anthropicBeta,
    body: upstreamBody(route, inspected, admitted.grantedOutput),
    stream: inspected.stream,
  });
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A step's value or what it threw, so the handler reads as steps rather than nested catches. */
async function attempt<T>(step: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Answers with the error (an unexpected one as a logged, generic 500); returns the status. */
function sendFailure(deps: GatewayDeps, route: Route, res: ServerResponse, error: unknown): number {
  if (!isAppError(error))
    deps.logger.error({ err: error, path: route.path }, "gateway request failed");
  const appError = isAppError(error)
    ? error
    : new AppError(
        "INTERNAL",
        "The gateway failed to handle this request; retry, and report it if it persists.",
        { reason: "GATEWAY_ERROR", cause: error },
      );
  sendError(res, appError);
  return appError.httpStatus;
}
