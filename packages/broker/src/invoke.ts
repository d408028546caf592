// The call itself, after every check passed: decrypt the connection's credential (C25), call
// the connector with the run's scope and a timeout, mask and cap what comes back. Connector
// errors become typed refusals whose messages are masked; nothing else leaves.
import type { PlanEntry } from "./plan.ts";
import type { ConnectionKind, Connector, ToolResultContent } from "@secondshift/connectors";
import { CryptoError, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import type { Logger, SecretMasker } from "@secondshift/logging";
import type { AccessState } from "./access-state.ts";
import { ToolCallError } from "./refusals.ts";
import { capResult } from "./result.ts";
import { loadSecrets, type OAuthRefresher } from "./secrets.ts";

export interface InvokeContext {
  db: Db;
  keyring: Keyring;
  connectors: Partial<Record<ConnectionKind, Connector>>;
  logger: Logger;
  masker: SecretMasker;
  oauthRefresher: OAuthRefresher | undefined;
  now: () => Date;
  limits: { timeoutMs: number; maxResultBytes: number };
}

export interface InvokedRun {
  id: string;
  workspaceId: string;
  repositoryFullName: string | null;
}

/** Tool output for the model: data from outside, never instructions (P01). */
export interface UntrustedToolResult {
  untrusted: true;
  tool: string;
  content: ToolResultContent[];
  truncated: boolean;
  isError: boolean;
}

export async function invoke(
  ctx: InvokeContext,
  run: InvokedRun,
  entry: PlanEntry,
  state: AccessState,
  args: Record<string, unknown>,
): Promise<UntrustedToolResult> {
  const connector = ctx.connectors[entry.connectionKind];
  if (!connector)
    throw new ToolCallError(
      "CONNECTOR_FAILED",
      `No ${entry.connectionKind} connector is configured on this worker.`,
    );
  const controller = new AbortController();
  const { timeoutMs, maxResultBytes } = ctx.limits;
  let timer: NodeJS.Timeout | undefined;
  const seen: { refusal?: ToolCallError } = {};
  try {
    const secrets = await loadSecrets(
      {
        db: ctx.db,
        keyring: ctx.keyring,
        // The run's scope while it runs: its credentials leave the masker with the run (P02).
        masker: ctx.masker.scopeFor(run.id),
        refresher: ctx.oauthRefresher,
        now: ctx.now,
      },
      { workspaceId: run.workspaceId, connectionId: entry.connectionId },
      state.connection,
      controller.signal,
      seen,
    );
    const target = {
      connectionId: entry.connectionId,
      workspaceId: run.workspaceId,
      kind: entry.connectionKind,
      endpoint: state.connection.endpoint,
      authType: state.connection.authType,
      authHeaderName: state.connection.authHeaderName,
      settings: state.connection.settings,
    };
    // Started only now, so that nothing can leave its rejection unhandled.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ToolCallError("TIMEOUT", `The tool did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
    });
    const result = await Promise.race([
      connector.callTool(target, secrets, entry.tool, args, {
        signal: controller.signal,
        timeoutMs,
        maxResultBytes,
        scope: { repositoryFullName: run.repositoryFullName, runId: run.id },
      }),
      timeout,
    ]);
    // A service may echo the credential back: mask before the model sees it (C25).
    const capped = capResult(ctx.masker.maskValue(result.content), maxResultBytes);
    return {
      untrusted: true,
      tool: entry.name,
      content: capped.content,
      truncated: result.truncated || capped.truncated,
      isError: result.isError,
    };
  } catch (error) {
    // A refused refresh (reconnect needed) keeps its own reason, not the connector's wrapper.
    throw seen.refusal ?? connectorRefusal(ctx, run, entry, error);
  } finally {
    clearTimeout(timer);
  }
}

/** A connector's error as the refusal the model sees; its message masked, never a credential. */
function connectorRefusal(
  ctx: InvokeContext,
  run: InvokedRun,
  entry: PlanEntry,
  error: unknown,
): ToolCallError {
  if (error instanceof ToolCallError) return error;
  if (isAppError(error) && (error.reason === "OUT_OF_SCOPE" || error.reason === "TIMEOUT"))
    return new ToolCallError(error.reason, ctx.masker.mask(error.message));
  ctx.logger.warn(
    {
      runId: run.id,
      tool: entry.name,
      connectionId: entry.connectionId,
      reason: isAppError(error) ? error.reason : undefined,
    },
    "tool call failed",
  );
  // The stored credential does not decrypt (altered, or moved from another row, field or
  // workspace: P06): the credential is what failed, and only the owner can set it again.
  if (error instanceof CryptoError)
    return new ToolCallError(
      "CREDENTIAL_UNAVAILABLE",
      `${error.message} Ask the workspace owner to enter the connection's credential again.`,
    );
  const message = isAppError(error) ? ctx.masker.mask(error.message) : "The connector failed.";
  return new ToolCallError("CONNECTOR_FAILED", message);
}
