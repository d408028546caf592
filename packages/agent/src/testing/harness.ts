// Wires runAgent to a scripted model server and in-memory fakes, with defaults a test can
// override, and closes the server afterwards.
import { randomBytes } from "node:crypto";
import { SecretMasker } from "@secondshift/logging";
import { runAgent } from "../run-agent.ts";
import type { AgentResult, PlanTool, RunAgentOptions } from "../types.ts";
import { FakeBroker, FakeSandbox, MemorySink } from "./fakes.ts";
import { startScriptedModel, type ScriptedModel, type ScriptStep } from "./scripted-model.ts";

export const providers = ["anthropic", "openai"] as const;
export type Provider = (typeof providers)[number];

export const echoTool: PlanTool = {
  connectionId: "conn-1",
  connectionKind: "mcp",
  label: "everything",
  tool: "echo",
  inputSchema: {
    type: "object",
    properties: { message: { type: "string" } },
    required: ["message"],
  },
  mayChangeData: false,
};

export type RunOverrides = Partial<Omit<RunAgentOptions, "limits">> & {
  limits?: Partial<RunAgentOptions["limits"]>;
};

export interface Harness {
  model: ScriptedModel;
  sandbox: FakeSandbox;
  broker: FakeBroker;
  sink: MemorySink;
  masker: SecretMasker;
  runToken: string;
  cancel: AbortController;
  run(overrides?: RunOverrides): Promise<AgentResult>;
}

export async function harness(
  provider: Provider,
  script: ScriptStep[],
  files: Record<string, string> = {},
): Promise<Harness> {
  const model = await startScriptedModel(script);
  const sandbox = new FakeSandbox(files);
  const broker = new FakeBroker();
  const sink = new MemorySink();
  const masker = new SecretMasker();
  const runToken = `ssr_${randomBytes(32).toString("base64url")}`;
  const cancel = new AbortController();
  return {
    model,
    sandbox,
    broker,
    sink,
    masker,
    runToken,
    cancel,
    run: (overrides: RunOverrides = {}) =>
      runAgent({
        model: { provider, baseUrl: model.baseUrl, runToken, model: "scripted-model" },
        prompt: "Fix the failing test.",
        sandbox,
        broker,
        plan: [echoTool],
        events: sink,
        masker,
        ...overrides,
        limits: {
          maxTurns: 10,
          deadline: new Date(Date.now() + 60_000),
          signal: cancel.signal,
          maxToolResultChars: 10_000,
          ...overrides.limits,
        },
      }),
  };
}
