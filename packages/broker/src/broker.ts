// The tool broker: every MCP / API call a run makes goes through `call`, which runs four steps
// in this order, at every call:
//   1. preflight — exact plan membership (C18), from the run's frozen plan (cached per run);
//   2. access check — one statement re-reads grant, request hash and connection (C06) and
//      writes the call's audit row ahead as 'started'; then the arguments against the
//      snapshotted schema (C19);
//   3. invoke — decrypt the credential (C25), call the connector with a timeout, cap the result;
//   4. record — one awaited statement writes the outcome and duration (C29). If it fails, the
//      call is refused with AUDIT_UNAVAILABLE and the run fails: nothing runs unrecorded.
// A refusal is recorded the same way; one that takes access away ends the run (run lifecycle).
import { readPlan, type FrozenPlan, type PlanEntry } from "./plan.ts";
import type { ConnectionKind, Connector } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db, Pool } from "@secondshift/db";
import { SecretMasker, type Logger } from "@secondshift/logging";
import type { ValidateFunction } from "ajv";
import { checkAccess } from "./access-check.ts";
import { openCall, type AccessState } from "./access-state.ts";
import { compileArguments, validateArguments } from "./arguments.ts";
import { auditId, logAuditFailure, recordAudit } from "./audit.ts";
import { invoke, type InvokeContext, type UntrustedToolResult } from "./invoke.ts";
import type { BrokerMetrics } from "./metrics.ts";
import { ToolCallError } from "./refusals.ts";
import { failRun, revokeRun } from "@secondshift/run-lifecycle";
import type { OAuthRefresher } from "./secrets.ts";
import { checkRunAccess } from "./access-check.ts";
import { grantedPlatformTools, platformToolNamed, type PlatformTool } from "./platform/tool.ts";

export type { UntrustedToolResult } from "./invoke.ts";

export interface BrokerLimits {
  timeoutMs: number;
  maxResultBytes: number;
  maxStringLength: number;
  maxArrayItems: number;
}

export interface BrokerOptions {
  db: Db;
  /** The pool `db` runs on (`createDatabase`): the per-call statements are prepared on it. */
  pool: Pool;
  keyring: Keyring;
  connectors: Partial<Record<ConnectionKind, Connector>>;
  logger: Logger;
  masker?: SecretMasker;
  limits: BrokerLimits;
  oauthRefresher?: OAuthRefresher;
  now?: () => Date;
  /** Calls and refusals are counted here when given (createBrokerMetrics). */
  metrics?: BrokerMetrics;
}

export interface BrokerRun {
  id: string;
  workspaceId: string;
  jobId: string;
  repositoryFullName: string | null;
}

export interface Broker {
  call(run: BrokerRun, toolName: string, args: unknown): Promise<UntrustedToolResult>;
  /** The run's plan entries (for the agent loop's tool list). */
  tools(run: BrokerRun): Promise<PlanEntry[]>;
  /** The platform tools the run's plan grants (for the agent loop's tool list, exact names). */
  platformTools(run: BrokerRun): Promise<PlatformToolSpec[]>;
  /** At the run's end: drops its cached plan and validators. Nothing is pending. */
  release(runId: string): void;
}

export interface PlatformToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

interface RunPlan {
  plan: FrozenPlan;
  byName: Map<string, PlanEntry>;
  validators: Map<string, ValidateFunction>;
}

interface BrokerContext extends InvokeContext {
  pool: Pool;
  metrics: BrokerMetrics | undefined;
  limits: BrokerLimits;
  plans: Map<string, RunPlan>;
}

export function createBroker(options: BrokerOptions): Broker {
  const ctx: BrokerContext = {
    db: options.db,
    pool: options.pool,
    keyring: options.keyring,
    connectors: options.connectors,
    logger: options.logger,
    masker: options.masker ?? new SecretMasker(),
    oauthRefresher: options.oauthRefresher,
    now: options.now ?? (() => new Date()),
    limits: options.limits,
    plans: new Map(),
    metrics: options.metrics,
  };
  return {
    call: (run, toolName, args) => call(ctx, run, toolName, args),
    tools: async (run) => (await loadPlan(ctx, run)).plan.tools,
    platformTools: async (run) =>
      grantedPlatformTools((await loadPlan(ctx, run)).plan).map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      })),
    release: (runId) => void ctx.plans.delete(runId),
  };
}

async function call(
  ctx: BrokerContext,
  run: BrokerRun,
  toolName: string,
  args: unknown,
): Promise<UntrustedToolResult> {
  const started = performance.now();
  // An unknown name came from the model and is not recorded: it could carry anything.
  const row = {
    id: auditId(),
    toolName: null as string | null,
    connectionId: null as string | null,
  };
  const record = (outcome: string) =>
    recordOutcome(ctx, run, {
      ...row,
      outcome,
      durationMs: Math.round(performance.now() - started),
    });
  let result: UntrustedToolResult;
  try {
    const platform = platformToolNamed(toolName);
    if (platform) {
      // A platform tool's name is fixed (never the model's text), so it is recorded as is.
      row.toolName = platform.name;
      result = await callPlatform(ctx, run, platform, args, row.id);
    } else {
      const { plan, entry } = await preflight(ctx, run, toolName); // 1
      row.toolName = entry.name;
      row.connectionId = entry.connectionId;
      const access = await accessCheck(ctx, run, plan.plan.grantId, entry, row.id); // 2
      const valid = validateArguments(validatorFor(plan, entry), args, ctx.limits);
      result = await invoke(ctx, run, entry, access, valid); // 3
    }
  } catch (error) {
    // A refusal is recorded (4) before it is returned; if that fails, it becomes AUDIT_UNAVAILABLE.
    const refusal =
      error instanceof ToolCallError
        ? error
        : new ToolCallError("CONNECTOR_FAILED", "The tool call failed.");
    return refuse(ctx, run, (await record(refusal.reason)) ?? refusal);
  }
  const unrecorded = await record(result.isError ? "tool_error" : "ok"); // 4
  if (unrecorded) return refuse(ctx, run, unrecorded);
  ctx.metrics?.calls.inc({ outcome: result.isError ? "tool_error" : "ok" });
  return result;
}

/**
 * A platform tool: the same steps without a connection — granted by the plan (1), the run and
 * its grant re-read with the row written ahead (2), the arguments against the tool's schema,
 * then its handler, whose only effect is a row in this database (O01).
 */
async function callPlatform(
  ctx: BrokerContext,
  run: BrokerRun,
  tool: PlatformTool,
  args: unknown,
  auditRowId: string,
): Promise<UntrustedToolResult> {
  const plan = await loadPlan(ctx, run);
  if (!tool.grantedBy(plan.plan)) throw notInPlan();
  let state: AccessState | null;
  try {
    state = await openCall(ctx.pool, {
      workspaceId: run.workspaceId,
      runId: run.id,
      grantId: plan.plan.grantId,
      connectionId: null,
      tool: tool.name,
      auditId: auditRowId,
      toolName: tool.name,
    });
  } catch (error) {
    logAuditFailure(ctx.logger, { runId: run.id, workspaceId: run.workspaceId }, error);
    throw auditUnavailable();
  }
  checkRunAccess(state, run);
  let validate = plan.validators.get(tool.name);
  if (!validate) {
    validate = compileArguments(tool.inputSchema, tool.name);
    plan.validators.set(tool.name, validate);
  }
  const valid = validateArguments(validate, args, ctx.limits);
  const out = await tool.call({ db: ctx.db, run, plan: plan.plan }, valid);
  return {
    untrusted: true,
    tool: tool.name,
    content: [{ type: "text", text: out.text }],
    truncated: false,
    isError: out.isError,
  };
}

const notInPlan = () =>
  new ToolCallError(
    "NOT_IN_PLAN",
    "This tool is not in the run's execution plan. Use only the tools listed for this run, with their exact names.",
  );

// Printable ASCII only: look-alikes (Cyrillic "о"), zero-width and control characters never
// reach the exact comparison, so they cannot be normalised into a match somewhere later.
const TOOL_NAME = /^[\x21-\x7e]{1,200}$/;

/** Step 1: the tool must be in the run's frozen plan under exactly this name (C18). */
async function preflight(
  ctx: BrokerContext,
  run: BrokerRun,
  toolName: string,
): Promise<{ plan: RunPlan; entry: PlanEntry }> {
  const plan = await loadPlan(ctx, run);
  const entry =
    typeof toolName === "string" && TOOL_NAME.test(toolName)
      ? plan.byName.get(toolName)
      : undefined;
  if (!entry) throw notInPlan();
  return { plan, entry };
}

async function loadPlan(ctx: BrokerContext, run: BrokerRun): Promise<RunPlan> {
  const hit = ctx.plans.get(run.id);
  if (hit) return hit;
  const row = await ctx.db.run.findFirst({
    where: { id: run.id, workspaceId: run.workspaceId, jobId: run.jobId },
    select: { plan: true },
  });
  const plan = readPlan(row?.plan);
  if (!plan)
    throw new ToolCallError(
      "RUN_NOT_ACTIVE",
      "This run has no execution plan; it was not started by the worker.",
    );
  const loaded: RunPlan = {
    plan,
    byName: new Map(plan.tools.map((t) => [t.name, t])),
    validators: new Map(),
  };
  ctx.plans.set(run.id, loaded);
  return loaded;
}

/** Step 2: the access re-read (never cached) with the row written ahead, then its checks. */
async function accessCheck(
  ctx: BrokerContext,
  run: BrokerRun,
  grantId: string,
  entry: PlanEntry,
  auditRowId: string,
): Promise<AccessState> {
  let state: AccessState | null;
  try {
    state = await openCall(ctx.pool, {
      workspaceId: run.workspaceId,
      runId: run.id,
      grantId,
      connectionId: entry.connectionId,
      tool: entry.tool,
      auditId: auditRowId,
      toolName: entry.name,
    });
  } catch (error) {
    logAuditFailure(ctx.logger, { runId: run.id, workspaceId: run.workspaceId }, error);
    throw auditUnavailable();
  }
  return checkAccess(state, run, entry);
}

function validatorFor(plan: RunPlan, entry: PlanEntry): ValidateFunction {
  let validate = plan.validators.get(entry.name);
  if (!validate) {
    validate = compileArguments(entry.inputSchema, entry.name);
    plan.validators.set(entry.name, validate);
  }
  return validate;
}

/** Step 4: the call's final audit row. Null when written; else the refusal it turns into. */
async function recordOutcome(
  ctx: BrokerContext,
  run: BrokerRun,
  write: Parameters<typeof recordAudit>[3],
): Promise<ToolCallError | null> {
  try {
    await recordAudit(ctx.pool, ctx.logger, { runId: run.id, workspaceId: run.workspaceId }, write);
    return null;
  } catch {
    return auditUnavailable();
  }
}

const auditUnavailable = () =>
  new ToolCallError(
    "AUDIT_UNAVAILABLE",
    "The tool call could not be recorded in the audit log; the run stops.",
  );

/** Throws the refusal, after ending the run if it must (C06; an unaudited call). */
async function refuse(ctx: BrokerContext, run: BrokerRun, refusal: ToolCallError): Promise<never> {
  ctx.metrics?.calls.inc({ outcome: "refused" });
  ctx.metrics?.refusals.inc({ reason: refusal.reason });
  if (refusal.failsRun) {
    // Access taken away by the owner ends the run as REVOKED; anything else as FAILED.
    const failed =
      refusal.reason === "AUDIT_UNAVAILABLE" || refusal.reason === "RECONNECT_REQUIRED";
    const end = failed ? failRun : revokeRun;
    await end(ctx.db, run, refusal.message).catch((error: unknown) =>
      ctx.logger.error(
        {
          runId: run.id,
          reason: refusal.reason,
          message: error instanceof Error ? error.message : "",
        },
        "marking the run ended after a refusal failed",
      ),
    );
  }
  throw refusal;
}
