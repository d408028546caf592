// The tool broker: every MCP / API call a run makes goes through `call`, which checks, in this
// order and at every call (C18): exact plan membership; grant, request hash and connection
// re-read from the database (C06); arguments against the snapshotted schema (C19); only then
// decrypts the credential (C25), calls the connector with a timeout and caps the result. Each
// call writes exactly one audit row with ids, names, outcome and duration — nothing else (C29):
// a call that passed the plan check writes its row ahead, as 'started', in the same round trip
// as the re-read, and its outcome follows with the run's next statement (audit.ts).
import { readPlan, type FrozenPlan, type PlanEntry } from "@secondshift/access";
import type { ConnectionKind, Connector, ToolResultContent } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import { SecretMasker, type Logger } from "@secondshift/logging";
import type { ValidateFunction } from "ajv";
import { openCall, type AccessState } from "./access-state.ts";
import { AuditQueue, auditId, brokerSql, type SqlPool } from "./audit.ts";
import { compileArguments, validateArguments } from "./arguments.ts";
import { ToolCallError, type RefusalReason } from "./refusals.ts";
import { capResult } from "./result.ts";
import { loadSecrets, type OAuthRefresher } from "./secrets.ts";

export interface BrokerLimits {
  timeoutMs: number;
  maxResultBytes: number;
  maxStringLength: number;
  maxArrayItems: number;
  /**
   * How long a finished call's outcome waits to be written with the run's next call (one round
   * trip for both) before it is written on its own; default 20 ms.
   */
  auditDelayMs?: number;
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
   * Optional node-postgres pool on the same database for the per-call statements (access
   * re-read with the audit write): they cost a fraction of Prisma's raw-query layer. Both paths
   * send the same SQL.
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
  /**
   * At the run's end: writes its queued audit rows (outcomes of finished calls) and drops its
   * cached plan and validators. Rejects (AUDIT_UNAVAILABLE) if an audit write of the run failed
   * at any point; the run must not then be recorded as a success.
   */
  forget(runId: string): Promise<void>;
  /** Writes every run's queued audit rows now (worker stop). Rejects like `forget`. */
  flush(): Promise<void>;
}

// Printable ASCII only: look-alikes (Cyrillic "о"), zero-width and control characters never
// reach the exact comparison, so they cannot be normalised into a match somewhere later.
const TOOL_NAME = /^[\x21-\x7e]{1,200}$/;

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
  const sdb = brokerSql(db, options.pool);

  const audit = new AuditQueue(sdb, limits.auditDelayMs ?? 20, logger);
  const auditUnavailable = () =>
    new ToolCallError(
      "AUDIT_UNAVAILABLE",
      "The tool call could not be recorded in the audit log; the run stops.",
    );

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

  /** Ends the run for a refusal that fails it; the refusal is thrown whatever happens here. */
  async function failRun(run: BrokerRun, error: ToolCallError): Promise<void> {
    await db.run
      .updateMany({
        where: { id: run.id, workspaceId: run.workspaceId, status: "RUNNING" },
        data: {
          status: error.reason === "AUDIT_UNAVAILABLE" ? "FAILED" : "REVOKED",
          error: error.message,
          finishedAt: now(),
        },
      })
      .catch((e: unknown) =>
        logger.error(
          { runId: run.id, reason: error.reason, message: e instanceof Error ? e.message : "" },
          "marking the run failed after a refusal failed",
        ),
      );
  }

  const asRefusal = (error: unknown): ToolCallError =>
    error instanceof ToolCallError
      ? error
      : new ToolCallError("CONNECTOR_FAILED", "The tool call failed.");

  /** The checks before any database access: exact plan membership, the run's audit health. */
  async function preflight(
    run: BrokerRun,
    toolName: string,
  ): Promise<
    { cached: RunCache; entry: PlanEntry } | { refusal: ToolCallError; entry?: PlanEntry }
  > {
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
      // An earlier audit write of this run failed: nothing more runs unrecorded (fail closed).
      if (audit.failed(run.id)) throw auditUnavailable();
      return { cached, entry };
    } catch (error) {
      return entry ? { refusal: asRefusal(error), entry } : { refusal: asRefusal(error) };
    }
  }

  /** Throws the refusal after failing the run if it must. */
  async function refuse(run: BrokerRun, refusal: ToolCallError): Promise<never> {
    if (refusal.failsRun) await failRun(run, refusal);
    throw refusal;
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
      // Into the run's scope: the credentials leave the masker when the run ends (P02).
      {
        db,
        keyring: options.keyring,
        masker: masker.scopeFor(run.id),
        refresher: options.oauthRefresher,
        now,
      },
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
      const elapsed = () => Math.round(performance.now() - started);
      const key = { runId: run.id, workspaceId: run.workspaceId };
      const found = await preflight(run, toolName);
      if ("refusal" in found) {
        // Refused before any access check: one complete row, written now.
        let refusal = found.refusal;
        await audit
          .record(key, {
            id: auditId(),
            // An unknown name came from the model and is not recorded: it could carry anything.
            toolName: found.entry?.name ?? null,
            connectionId: found.entry?.connectionId ?? null,
            outcome: refusal.reason satisfies RefusalReason,
            durationMs: elapsed(),
          })
          .catch(() => {
            refusal = auditUnavailable();
          });
        return refuse(run, refusal);
      }
      const { cached, entry } = found;
      const id = auditId();
      const finished = (outcome: string) => ({
        id,
        toolName: entry.name,
        connectionId: entry.connectionId,
        outcome,
        durationMs: elapsed(),
      });

      // One round trip: the previous call's outcome, this call's row as 'started', and the
      // access re-read (never cached).
      let state: AccessState | null;
      try {
        state = await audit.carry(key, (previous) =>
          openCall(sdb, {
            workspaceId: run.workspaceId,
            runId: run.id,
            grantId: cached.plan.grantId,
            connectionId: entry.connectionId,
            tool: entry.tool,
            auditId: id,
            toolName: entry.name,
            previous,
          }),
        );
      } catch {
        // Not checked, not recorded (logged by the queue): record the refusal now, if possible.
        await audit.record(key, finished("AUDIT_UNAVAILABLE")).catch(() => undefined);
        return refuse(run, auditUnavailable());
      }

      let checked = false;
      try {
        const access = checkAccess(state, run, entry);
        let validate = cached.validators.get(entry.name);
        if (!validate) {
          validate = compileArguments(entry.inputSchema);
          cached.validators.set(entry.name, validate);
        }
        const valid = validateArguments(validate, args, limits);
        checked = true;
        const result = await invoke(run, entry, access, valid);
        audit.add(key, finished(result.isError ? "tool_error" : "ok"));
        return result;
      } catch (error) {
        let refusal = asRefusal(error);
        // A refusal by the checks is recorded before it is returned; the outcome of a call
        // that reached the connector follows like a success.
        if (checked) audit.add(key, finished(refusal.reason));
        else
          await audit.record(key, finished(refusal.reason)).catch(() => {
            refusal = auditUnavailable();
          });
        return refuse(run, refusal);
      }
    },
    async tools(run) {
      return (await planFor(run)).plan.tools;
    },
    async forget(runId) {
      cache.delete(runId);
      await audit.forget(runId).catch(() => {
        throw auditUnavailable();
      });
    },
    async flush() {
      await audit.flushAll().catch(() => {
        throw auditUnavailable();
      });
    },
  };
}
