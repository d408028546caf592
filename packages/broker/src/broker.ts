// The tool broker: every MCP / API call a run makes goes through `call`, which checks, in this
// order and at every call (C18): exact plan membership; grant, request hash and connection
// re-read from the database (C06); arguments against the snapshotted schema (C19); only then
// decrypts the credential (C25), calls the connector with a timeout and caps the result. Each
// call writes exactly one audit row with ids, names, outcome and duration — nothing else (C29).
import { readPlan, writeAudit, type FrozenPlan, type PlanEntry } from "@secondshift/access";
import type { ConnectionKind, Connector, ToolResultContent } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import { SecretMasker, type Logger } from "@secondshift/logging";
import type { ValidateFunction } from "ajv";
import { readAccessState, type AccessState, type SqlPool } from "./access-state.ts";
import { randomUUID } from "node:crypto";
import { compileArguments, validateArguments } from "./arguments.ts";
import { ToolCallError, type RefusalReason } from "./refusals.ts";
import { capResult } from "./result.ts";
import { loadSecrets, type OAuthRefresher } from "./secrets.ts";

export interface BrokerLimits {
  timeoutMs: number;
  maxResultBytes: number;
  maxStringLength: number;
  maxArrayItems: number;
}

export interface BrokerOptions {
  db: Db;
  keyring: Keyring;
  connectors: Partial<Record<ConnectionKind, Connector>>;
  logger: Logger;
  masker?: SecretMasker;
  limits: BrokerLimits;
  oauthRefresher?: OAuthRefresher;
  now?: () => Date;
  /**
   * Optional node-postgres pool on the same database for the two queries of every call (the
   * access re-read and the audit insert): they cost a fraction of Prisma's raw-query layer.
   */
  pool?: SqlPool;
}

export interface BrokerRun {
  id: string;
  workspaceId: string;
  jobId: string;
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

export interface Broker {
  call(run: BrokerRun, toolName: string, args: unknown): Promise<UntrustedToolResult>;
  /** The run's plan entries (for the agent loop's tool list). */
  tools(run: BrokerRun): Promise<PlanEntry[]>;
  /** Drops the run's cached plan and validators when it ends. */
  forget(runId: string): void;
}

// Printable ASCII only: look-alikes (Cyrillic "о"), zero-width and control characters never
// reach the exact comparison, so they cannot be normalised into a match somewhere later.
const TOOL_NAME = /^[\x21-\x7e]{1,200}$/;

// A prepared statement on each pooled connection, like the access re-read (access-state.ts).
const AUDIT_STATEMENT = "secondshift_broker_audit_v1";
const AUDIT_SQL = `INSERT INTO "AuditEvent" ("id", "workspaceId", "actorType", "actorId", "action", "toolName", "connectionId", "outcome", "durationMs", "createdAt")
       VALUES ($1, $2, 'RUN', $3, 'tool.call', $4, $5, $6, $7, now())`;

interface RunCache {
  plan: FrozenPlan;
  byName: Map<string, PlanEntry>;
  validators: Map<string, ValidateFunction>;
}

export function createBroker(options: BrokerOptions): Broker {
  const { db, limits, logger } = options;
  const masker = options.masker ?? new SecretMasker();
  const now = options.now ?? (() => new Date());
  const cache = new Map<string, RunCache>();

  /** Exactly one audit row per call: actor run, tool, connection, outcome, duration (C29). */
  async function auditCall(a: {
    workspaceId: string;
    runId: string;
    toolName: string | null;
    connectionId: string | null;
    outcome: string;
    durationMs: number;
  }): Promise<void> {
    if (!options.pool) {
      await writeAudit(db, {
        workspaceId: a.workspaceId,
        actorType: "RUN",
        actorId: a.runId,
        action: "tool.call",
        ...(a.toolName && a.connectionId
          ? { toolName: a.toolName, connectionId: a.connectionId }
          : {}),
        outcome: a.outcome,
        durationMs: a.durationMs,
      });
      return;
    }
    await options.pool.query({
      name: AUDIT_STATEMENT,
      text: AUDIT_SQL,
      values: [
        randomUUID(),
        a.workspaceId,
        a.runId,
        a.toolName,
        a.connectionId,
        a.outcome,
        a.durationMs,
      ],
    });
  }

  async function planFor(run: BrokerRun): Promise<RunCache> {
    const hit = cache.get(run.id);
    if (hit) return hit;
    const row = await db.run.findFirst({
      where: { id: run.id, workspaceId: run.workspaceId, jobId: run.jobId },
      select: { plan: true },
    });
    const plan = readPlan(row?.plan);
    if (!plan)
      throw new ToolCallError(
        "RUN_NOT_ACTIVE",
        "This run has no execution plan; it was not started by the worker.",
      );
    const entry: RunCache = {
      plan,
      byName: new Map(plan.tools.map((t) => [t.name, t])),
      validators: new Map(),
    };
    cache.set(run.id, entry);
    return entry;
  }

  function checkAccess(state: AccessState | null, run: BrokerRun, entry: PlanEntry): AccessState {
    if (!state || state.runJobId !== run.jobId)
      throw new ToolCallError("RUN_NOT_ACTIVE", "This run was not found.");
    if (state.runStatus !== "RUNNING")
      throw new ToolCallError(
        "RUN_NOT_ACTIVE",
        `This run is ${state.runStatus.toLowerCase()}; it cannot call tools.`,
      );
    if (!state.grantFound || state.grantRevoked)
      throw new ToolCallError(
        "GRANT_REVOKED",
        "The owner revoked this job's access; the run stops.",
      );
    if (state.grantHash !== state.jobHash)
      throw new ToolCallError(
        "REQUEST_CHANGED",
        "The job's tool request changed since it was approved; the run stops until an owner approves it.",
      );
    if (!state.connectionFound || state.connectionDeleted)
      throw new ToolCallError(
        "CONNECTION_REMOVED",
        "The owner removed the connection this tool uses; the run stops.",
      );
    if (!state.allowedTools.includes(entry.tool) || !state.granted)
      throw new ToolCallError(
        "TOOL_NOT_ALLOWED",
        `The owner no longer allows "${entry.name}"; the run stops.`,
      );
    return state;
  }

  async function failRun(run: BrokerRun, error: ToolCallError): Promise<void> {
    await db.run.updateMany({
      where: { id: run.id, workspaceId: run.workspaceId, status: "RUNNING" },
      data: { status: "REVOKED", error: error.message, finishedAt: now() },
    });
  }

  async function invoke(
    run: BrokerRun,
    entry: PlanEntry,
    state: AccessState,
    args: Record<string, unknown>,
  ): Promise<UntrustedToolResult> {
    const connector = options.connectors[entry.connectionKind];
    if (!connector)
      throw new ToolCallError(
        "CONNECTOR_FAILED",
        `No ${entry.connectionKind} connector is configured on this worker.`,
      );
    const controller = new AbortController();
    const secrets = await loadSecrets(
      { db, keyring: options.keyring, masker, refresher: options.oauthRefresher, now },
      { workspaceId: run.workspaceId, connectionId: entry.connectionId },
      state.connection,
      controller.signal,
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
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new ToolCallError("TIMEOUT", `The tool did not answer within ${limits.timeoutMs} ms.`),
        );
      }, limits.timeoutMs);
    });
    try {
      const result = await Promise.race([
        connector.callTool(target, secrets, entry.tool, args, {
          signal: controller.signal,
          timeoutMs: limits.timeoutMs,
          maxResultBytes: limits.maxResultBytes,
          scope: { repositoryFullName: run.repositoryFullName, runId: run.id },
        }),
        timeout,
      ]);
      // A service may echo the credential back: mask before the model sees it (C25).
      const capped = capResult(masker.maskValue(result.content), limits.maxResultBytes);
      return {
        untrusted: true,
        tool: entry.name,
        content: capped.content,
        truncated: result.truncated || capped.truncated,
        isError: result.isError,
      };
    } catch (error) {
      if (error instanceof ToolCallError) throw error;
      if (isAppError(error) && error.reason === "OUT_OF_SCOPE")
        throw new ToolCallError("OUT_OF_SCOPE", masker.mask(error.message));
      if (isAppError(error) && error.reason === "TIMEOUT")
        throw new ToolCallError("TIMEOUT", masker.mask(error.message));
      const message = isAppError(error) ? masker.mask(error.message) : "The connector failed.";
      logger.warn(
        {
          runId: run.id,
          tool: entry.name,
          connectionId: entry.connectionId,
          reason: isAppError(error) ? error.reason : undefined,
        },
        "tool call failed",
      );
      throw new ToolCallError("CONNECTOR_FAILED", message);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async call(run, toolName, args) {
      const started = performance.now();
      let outcome: string = "ok";
      let entry: PlanEntry | undefined;
      try {
        const cached = await planFor(run);
        entry =
          typeof toolName === "string" && TOOL_NAME.test(toolName)
            ? cached.byName.get(toolName)
            : undefined;
        if (!entry)
          throw new ToolCallError(
            "NOT_IN_PLAN",
            "This tool is not in the run's execution plan. Use only the tools listed for this run, with their exact names.",
          );
        const state = checkAccess(
          await readAccessState(
            db,
            {
              workspaceId: run.workspaceId,
              runId: run.id,
              grantId: cached.plan.grantId,
              connectionId: entry.connectionId,
              tool: entry.tool,
            },
            options.pool,
          ),
          run,
          entry,
        );
        let validate = cached.validators.get(entry.name);
        if (!validate) {
          validate = compileArguments(entry.inputSchema);
          cached.validators.set(entry.name, validate);
        }
        const checked = validateArguments(validate, args, limits);
        const result = await invoke(run, entry, state, checked);
        if (result.isError) outcome = "tool_error";
        return result;
      } catch (error) {
        const refusal =
          error instanceof ToolCallError
            ? error
            : new ToolCallError("CONNECTOR_FAILED", "The tool call failed.");
        outcome = refusal.reason satisfies RefusalReason;
        if (refusal.failsRun) await failRun(run, refusal);
        throw refusal;
      } finally {
        await auditCall({
          workspaceId: run.workspaceId,
          runId: run.id,
          // An unknown name came from the model and is not recorded: it could carry anything.
          toolName: entry?.name ?? null,
          connectionId: entry?.connectionId ?? null,
          outcome,
          durationMs: Math.round(performance.now() - started),
        });
      }
    },
    async tools(run) {
      return (await planFor(run)).plan.tools;
    },
    forget(runId) {
      cache.delete(runId);
    },
  };
}
