import { AppError } from "@secondshift/errors";
import { afterEach, describe, expect, it } from "vitest";
import { harness, providers, type Harness } from "./testing/harness.ts";
import type { ScriptStep } from "./testing/scripted-model.ts";

let current: Harness | undefined;
afterEach(async () => {
  await current?.model.close();
  current = undefined;
});

const budgetBody = {
  error: {
    code: "PAYMENT_REQUIRED",
    reason: "BUDGET_EXHAUSTED",
    message: "The run's token budget is used up.",
  },
};
const shellCall: ScriptStep = {
  reply: { toolCalls: [{ name: "shell", args: { command: "ls" } }] },
};

describe.each(providers)("how a run stops over %s", (provider) => {
  it("a 402 budget error from the gateway ends the run as budget_exhausted, keeping the usage so far", async () => {
    const h = (current = await harness(provider, [
      shellCall,
      { error: { status: 402, body: budgetBody, sticky: true } },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("budget_exhausted");
    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    expect(h.model.requests).toHaveLength(2);
    expect(h.sink.types().slice(-2)).toEqual(["error", "agent_finished"]);
  });

  it("a 429 with reason BUDGET_EXHAUSTED is budget_exhausted too, not a rate limit to wait out", async () => {
    const h = (current = await harness(provider, [
      { error: { status: 429, body: budgetBody, sticky: true } },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("budget_exhausted");
    expect(h.model.requests.length).toBeLessThanOrEqual(2);
  });

  it("a 401 from the gateway (token revoked or expired) fails the run with a clear message", async () => {
    const h = (current = await harness(provider, [
      {
        error: {
          status: 401,
          body: { error: { code: "UNAUTHORIZED", reason: "RUN_TOKEN_INVALID", message: "no" } },
          sticky: true,
        },
      },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("failed");
    expect(result.error).toMatch(/no longer accepts this run's token/);
  });

  it("an unreachable gateway fails the run and says so", async () => {
    const h = (current = await harness(provider, []));
    await h.model.close();
    const result = await h.run();
    expect(result.outcome).toBe("failed");
    expect(result.error).toMatch(/could not be reached/);
  });

  for (const reason of ["GRANT_REVOKED", "CONNECTION_REMOVED"]) {
    it(`a broker refusal with ${reason} ends the run as revoked, with no further model call or tool call`, async () => {
      const h = (current = await harness(provider, [
        {
          reply: {
            toolCalls: [
              { name: "mcp__everything__echo", args: { message: "x" } },
              { name: "shell", args: { command: "ls" } },
            ],
          },
        },
        { reply: { text: "should never be asked" } },
      ]));
      h.broker.handler = () => {
        throw new AppError("FORBIDDEN", "The job's access to this tool was revoked.", { reason });
      };
      const result = await h.run();
      expect(result.outcome).toBe("revoked");
      expect(result.error).toContain(reason);
      expect(h.model.requests).toHaveLength(1);
      expect(h.sandbox.commands).toEqual([]);
    });
  }

  it("a broker refusal with AUDIT_UNAVAILABLE fails the run, with no further model call or tool call", async () => {
    const h = (current = await harness(provider, [
      {
        reply: {
          toolCalls: [
            { name: "mcp__everything__echo", args: { message: "x" } },
            { name: "shell", args: { command: "ls" } },
          ],
        },
      },
      { reply: { text: "should never be asked" } },
    ]));
    h.broker.handler = () => {
      throw new AppError("SERVICE_UNAVAILABLE", "The tool call could not be recorded.", {
        reason: "AUDIT_UNAVAILABLE",
      });
    };
    const result = await h.run();
    expect(result.outcome).toBe("failed");
    expect(result.error).toContain("AUDIT_UNAVAILABLE");
    expect(h.model.requests).toHaveLength(1);
    expect(h.sandbox.commands).toEqual([]);
  });

  it("another broker refusal (bad arguments) is an error result for the model, and the run goes on", async () => {
    const h = (current = await harness(provider, [
      { reply: { toolCalls: [{ name: "mcp__everything__echo", args: { message: "x" } }] } },
      { reply: { text: "ok" } },
    ]));
    h.broker.handler = () => {
      throw new AppError("BAD_REQUEST", "The arguments do not match the tool's schema.", {
        reason: "ARGUMENTS_INVALID",
      });
    };
    const result = await h.run();
    expect(result.outcome).toBe("succeeded");
    const toolResult = h.sink.events.find((e) => e.type === "tool_result")?.payload;
    expect(toolResult?.isError).toBe(true);
    expect(String(toolResult?.content)).toContain("ARGUMENTS_INVALID");
  });

  it("cancel during a model call ends the run as cancelled within 2 seconds", async () => {
    const h = (current = await harness(provider, [{ hang: true }]));
    setTimeout(() => h.cancel.abort(), 300);
    const started = Date.now();
    const result = await h.run();
    expect(result.outcome).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(2300);
  });

  it("cancel during a long shell command ends the run as cancelled within 2 seconds", async () => {
    const h = (current = await harness(provider, [shellCall, { reply: { text: "never" } }]));
    let execSignal: AbortSignal | undefined;
    h.sandbox.execHandler = (_command, options) => {
      execSignal = options.signal;
      return new Promise(() => {}); // a command that never ends
    };
    setTimeout(() => h.cancel.abort(), 300);
    const started = Date.now();
    const result = await h.run();
    expect(result.outcome).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(2300);
    expect(execSignal?.aborted).toBe(true); // the sandbox was told, so it can kill the exec
    expect(h.model.requests).toHaveLength(1);
  });

  it("the deadline ends a hanging run as timed_out", async () => {
    const h = (current = await harness(provider, [{ hang: true }]));
    const started = Date.now();
    const result = await h.run({ limits: { deadline: new Date(Date.now() + 500) } });
    expect(result.outcome).toBe("timed_out");
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("a deadline already past ends the run as timed_out before any model call", async () => {
    const h = (current = await harness(provider, [{ reply: { text: "never" } }]));
    const result = await h.run({ limits: { deadline: new Date(Date.now() - 1) } });
    expect(result.outcome).toBe("timed_out");
    expect(h.model.requests).toHaveLength(0);
  });

  it("a model that never gives a final answer stops at max turns", async () => {
    const h = (current = await harness(provider, [() => shellCall]));
    const result = await h.run({ limits: { maxTurns: 3 } });
    expect(result.outcome).toBe("max_turns");
    expect(h.model.requests).toHaveLength(3);
    // The last turn's calls are not run: no model turn is left to read their results.
    expect(h.sandbox.commands).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 60 });
  });
});
