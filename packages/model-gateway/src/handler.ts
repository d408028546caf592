// One model request, start to end: route (404) → token shape (401) → body (413/400) → admit
// (401/402/429: auth, run state, parallel limit and budget reservation in one round trip) →
// provider key → forward → settle → one log line. Nothing reaches the provider before
// admission has succeeded.
import type { IncomingMessage, ServerResponse } from "node:http";
import { decryptField } from "@secondshift/crypto";
import { AppError, isAppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { admit, type Admitted } from "./admission.ts";
import { presentedTokenHash } from "./auth.ts";
import type { Charge } from "./budget.ts";
import { sendError } from "./errors.ts";
import type { GatewayDeps } from "./options.ts";
import { forward, type ForwardResult } from "./proxy.ts";
import { readBody } from "./read-body.ts";
import { inspectRequest, upstreamBody } from "./request-body.ts";
import type { Route } from "./routes.ts";

export interface Tracker {
  track(work: Promise<unknown>): void;
}

async function providerKey(
  deps: GatewayDeps,
  admitted: Admitted,
  secrets: SecretMasker,
): Promise<string> {
  const provider = admitted.provider!;
  try {
    const key = await decryptField(deps.keyring, provider.apiKeyCiphertext, {
      workspaceId: admitted.workspaceId,
      table: "ModelProvider",
      rowId: provider.id,
      field: "apiKeyCiphertext",
    });
    secrets.add(key);
    return key;
  } catch (cause) {
    throw new AppError(
      "BAD_GATEWAY",
      "The workspace's model provider key cannot be decrypted; the workspace owner must enter it again.",
      {
        reason: "PROVIDER_KEY_UNREADABLE",
        cause,
      },
    );
  }
}

function chargeFor(
  admitted: Admitted,
  inputEstimate: number,
  result: ForwardResult | null,
): Charge {
  if (result?.usage) return result.usage;
  // Usage never arrived (stream cut, client gone, timeout): charge the whole reservation.
  if (result?.mayHaveCharged)
    return {
      input: Math.min(inputEstimate, admitted.reserved),
      output: admitted.grantedOutput,
      cache: 0,
    };
  return { input: 0, output: 0, cache: 0 };
}

const tokenKey = (hash: Buffer): string => hash.toString("base64");

export async function handleModelRequest(
  deps: GatewayDeps,
  tracker: Tracker,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  let admitted: Admitted | null = null;
  let result: ForwardResult | null = null;
  let inputEstimate = 0;
  let status: number;
  let settlementKey = "";
  // The provider key is masked while a request uses it and leaves the masker after the last one
  // (per-request scopes share a live value), so a rotated key does not stay forever (P02).
  const secrets = deps.masker.scope();
  try {
    const tokenHash = presentedTokenHash(req.headers);
    settlementKey = tokenKey(tokenHash);
    const raw = await readBody(req, deps.limits.maxBodyBytes);
    const inspected = inspectRequest(route, raw, deps.limits.defaultMaxOutputTokens);
    inputEstimate = inspected.inputEstimate;
    admitted = await admit(deps.sql, {
      tokenHash,
      settlements: deps.settlements.take(settlementKey),
      metered: route.metered,
      inputEstimate,
      requestedOutput: inspected.requestedOutput,
      maxParallel: deps.limits.maxParallelPerRun,
    });
    if (!admitted.provider) {
      throw new AppError(
        "PRECONDITION_FAILED",
        "The workspace has no model provider; the workspace owner must add one.",
        { reason: "NO_MODEL_PROVIDER" },
      );
    }
    if (admitted.provider.kind !== route.family) {
      throw new AppError("NOT_FOUND", "This path is not served for the run's model provider.", {
        reason: "PATH_NOT_FOR_PROVIDER",
      });
    }
    const key = await providerKey(deps, admitted, secrets);
    result = await forward(deps, req, res, {
      route,
      family: admitted.provider.kind,
      baseUrl: admitted.provider.baseUrl,
      providerKey: key,
      body: upstreamBody(route, raw, inspected, admitted.grantedOutput),
      stream: inspected.stream,
    });
    status = result.error?.httpStatus ?? res.statusCode;
  } catch (error) {
    const appError = isAppError(error)
      ? error
      : new AppError(
          "INTERNAL",
          "The gateway failed to handle this request; retry, and report it if it persists.",
          { reason: "GATEWAY_ERROR", cause: error },
        );
    if (!isAppError(error))
      deps.logger.error({ err: error, path: route.path }, "gateway request failed");
    status = appError.httpStatus;
    sendError(res, appError);
  } finally {
    secrets.close();
  }
  const done = admitted;
  if (!done) {
    deps.logger.info(
      { path: route.path, status, latencyMs: +(performance.now() - started).toFixed(3) },
      "model request refused",
    );
    return;
  }
  // Settle after the response has been handed to the client: the client's latency does not
  // include it, and the reservation keeps the budget safe until it lands.
  const charge = chargeFor(done, inputEstimate, result);
  const line = {
    runId: done.runId,
    workspaceId: done.workspaceId,
    path: route.path,
    status,
    upstreamStatus: result?.upstreamStatus ?? null,
    outcome: result?.outcome ?? "refused",
    usage: result?.usage ?? null,
    reserved: done.reserved,
    charged: charge.input + charge.output + charge.cache,
    latencyMs: +(performance.now() - started).toFixed(3),
  };
  // The log line is written once this turn of the event loop is over, so that it never sits
  // on the path of a request that is waiting to be admitted or forwarded.
  tracker.track(
    new Promise<void>((resolve) =>
      setImmediate(() => {
        deps.logger.info(line, "model request");
        resolve();
      }),
    ),
  );
  tracker.track(
    deps.settlements
      .add(settlementKey, done, done.reserved, charge)
      .then((runStatus) => {
        if (runStatus === "BUDGET_EXHAUSTED")
          deps.logger.info({ runId: done.runId }, "run used its token budget");
      })
      .catch((err: unknown) =>
        deps.logger.error({ err, runId: done.runId }, "settling a model request failed"),
      ),
  );
}
