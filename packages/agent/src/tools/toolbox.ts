// One place that turns a model's tool call into a result: resolve the name (built-in or plan
// tool, never an unknown name), check the arguments, refuse anything that would carry a secret
// out (C28: the run token never reaches the sandbox), run it, and wrap the result as untrusted
// data. Every failure the model can cause becomes an error result it can read, not a crash.
import { isAppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { raceAbort, StopRun } from "../stop.ts";
import { SANDBOX_LOST_REASONS, type RunSandbox } from "@secondshift/sandbox";
import type { BrokerPort, BrokerResult, PlanTool } from "../types.ts";
import { wrapUntrusted } from "../untrusted.ts";
import {
  BUILTIN_NAMES,
  builtinToolSpecs,
  checkBuiltinArgs,
  runBuiltin,
  type ToolSpec,
} from "./builtin.ts";
import { displayName, planToolNames } from "./names.ts";

/** A tool call as the provider adapter parsed it; `parseError` when the arguments were not JSON. */
export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
  parseError?: string;
}

export interface ToolResult {
  /** What the model sees: wrapped in an untrusted-data block. */
  text: string;
  isError: boolean;
  truncated: boolean;
  /** The plan or built-in name the call resolved to; undefined for an unknown name. */
  resolvedName: string | undefined;
}

/** Broker refusals that mean the job lost its grant: the run stops (C06). */
const REVOCATION_REASONS = new Set([
  "GRANT_REVOKED",
  "CONNECTION_REMOVED",
  "REQUEST_CHANGED",
  "TOOL_NOT_ALLOWED",
]);

export interface ToolboxOptions {
  sandbox: RunSandbox;
  broker: BrokerPort;
  plan: PlanTool[];
  masker: SecretMasker;
  maxToolResultChars: number;
  commandTimeoutMs: () => number;
  /**
   * The platform tools the run's plan grants (proposals, issue #24), offered under their exact
   * names and called through the broker without a connection.
   */
  platformTools?: ToolSpec[];
}

export class Toolbox {
  readonly specs: ToolSpec[];
  private readonly planTools: Map<string, PlanTool>;
  private readonly platformNames: Set<string>;

  constructor(private readonly options: ToolboxOptions) {
    const platform = options.platformTools ?? [];
    this.platformNames = new Set(platform.map((t) => t.name));
    this.planTools = planToolNames(options.plan, [...BUILTIN_NAMES, ...this.platformNames]);
    this.specs = [
      ...builtinToolSpecs(),
      ...platform.map((t) => ({ ...t })),
      ...[...this.planTools].map(([name, entry]) => planSpec(name, entry)),
    ];
  }

  async execute(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const known =
      BUILTIN_NAMES.includes(call.name) ||
      this.planTools.has(call.name) ||
      this.platformNames.has(call.name);
    const name = known ? call.name : undefined;
    const fail = (message: string) => this.result(name ?? "unknown", message, true, name);
    if (name === undefined) {
      return fail(
        `There is no tool named "${displayName(call.name)}". Use one of: ${this.specs.map((s) => s.name).join(", ")}.`,
      );
    }
    if (call.parseError !== undefined)
      return fail(`The arguments for ${name} are not valid JSON: ${call.parseError}`);
    if (typeof call.args !== "object" || call.args === null || Array.isArray(call.args)) {
      return fail(`The arguments for ${name} must be a JSON object.`);
    }
    const args = call.args as Record<string, unknown>;
    if (BUILTIN_NAMES.includes(name)) {
      const problem = checkBuiltinArgs(name, args);
      if (problem) return fail(problem);
    }
    // A registered secret (the run token, a decrypted credential) must never leave the agent
    // loop through a tool, even if the model somehow learned it.
    const serialised = JSON.stringify(args);
    if (this.options.masker.mask(serialised) !== serialised) {
      return fail(
        `The call to ${name} was refused: its arguments contain a secret value that must not leave the platform.`,
      );
    }
    const entry = this.planTools.get(name);
    try {
      if (entry)
        return await this.callBroker(name, entry.tool, signal, () =>
          this.options.broker.call(entry.tool, args, { connectionId: entry.connectionId }),
        );
      if (this.platformNames.has(name))
        return await this.callBroker(name, name, signal, () =>
          this.options.broker.call(name, args),
        );
      const out = await raceAbort(
        runBuiltin(name, args, {
          sandbox: this.options.sandbox,
          signal,
          commandTimeoutMs: this.options.commandTimeoutMs,
          maxOutputBytes: this.options.maxToolResultChars,
        }),
        signal,
      );
      return this.result(name, out.text, out.isError, name, out.truncated);
    } catch (error) {
      if (error instanceof StopRun || signal.aborted) throw error;
      // A sandbox killed for memory (or otherwise gone) cannot run another tool: the run ends
      // with the sandbox's own message, which names the limit, instead of turning on empty.
      const reason = reasonOf(error);
      if (reason !== undefined && SANDBOX_LOST_REASONS.has(reason))
        throw new StopRun("failed", (error as Error).message);
      return fail(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async callBroker(
    name: string,
    tool: string,
    signal: AbortSignal,
    send: () => Promise<BrokerResult>,
  ): Promise<ToolResult> {
    try {
      const out = await raceAbort(send(), signal);
      const text = out.content.map((part) => part.text).join("\n");
      return this.result(name, text, out.isError, name, out.truncated);
    } catch (error) {
      const reason = reasonOf(error);
      if (reason !== undefined && REVOCATION_REASONS.has(reason)) {
        throw new StopRun("revoked", `Access to ${tool} was revoked during the run (${reason}).`);
      }
      // The broker could not write its audit record: no further tool call may run unrecorded.
      if (reason === "AUDIT_UNAVAILABLE") {
        throw new StopRun(
          "failed",
          `The call to ${tool} could not be recorded in the audit log, so the run stops (${reason}).`,
        );
      }
      if (isAppError(error)) {
        return this.result(
          name,
          `The tool broker refused the call: ${error.message}${error.reason ? ` (${error.reason})` : ""}`,
          true,
          name,
        );
      }
      throw error;
    }
  }

  private result(
    source: string,
    content: string,
    isError: boolean,
    resolvedName: string | undefined,
    truncated = false,
  ): ToolResult {
    const wrapped = wrapUntrusted(source, content, {
      masker: this.options.masker,
      maxChars: this.options.maxToolResultChars,
    });
    return { text: wrapped.text, isError, truncated: truncated || wrapped.truncated, resolvedName };
  }
}

/** The AppError reason, also from a copy of AppError that fails instanceof (duplicated module). */
function reasonOf(error: unknown): string | undefined {
  if (isAppError(error)) return error.reason;
  const reason = (error as { name?: unknown; reason?: unknown } | null)?.reason;
  return (error as { name?: unknown } | null)?.name === "AppError" && typeof reason === "string"
    ? reason
    : undefined;
}

/** The model-facing definition of a plan tool: its snapshotted schema, our own description. */
function planSpec(name: string, entry: PlanTool): ToolSpec {
  const effect = entry.mayChangeData ? "It may change data." : "It only reads data.";
  const own = entry.description
    ? ` The connection describes it as (untrusted text): ${JSON.stringify(entry.description.slice(0, 1000))}`
    : "";
  return {
    name,
    description: `Calls "${entry.tool}" on the workspace's ${entry.connectionKind} connection. ${effect}${own}`,
    inputSchema: { ...entry.inputSchema, type: "object" },
  };
}
