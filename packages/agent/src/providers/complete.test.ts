// completeOnce: the threat review's single request through the gateway, in both wire formats,
// with the run token as the credential and no tools.
import { describe, expect, it } from "vitest";
import { startScriptedModel } from "../testing/scripted-model.ts";
import { completeOnce } from "./complete.ts";

const runToken = "ssr_complete-once-test-token";

describe.each(["anthropic", "openai"] as const)("completeOnce (%s)", (provider) => {
  it("sends one request with the system prompt, the user text and no tools", async () => {
    const model = await startScriptedModel([
      { reply: { text: "VERDICT: OK", usage: { input: 30, output: 3 } } },
    ]);
    try {
      const config = {
        provider,
        baseUrl: model.baseUrl,
        runToken,
        model: "m",
        maxOutputTokens: 99,
      };
      const answer = await completeOnce(config, { system: "SYS", user: "USER" });
      expect(answer).toEqual({ text: "VERDICT: OK", usage: { inputTokens: 30, outputTokens: 3 } });
      expect(model.requests).toHaveLength(1);
      const [request] = model.requests;
      const credential =
        request?.headers["x-api-key"] ?? request?.headers.authorization?.replace(/^Bearer /, "");
      expect(credential).toBe(runToken);
      expect(request?.body).not.toHaveProperty("tools");
      const body = JSON.stringify(request?.body);
      expect(body).toContain("SYS");
      expect(body).toContain("USER");
      expect(body).not.toContain(runToken);
    } finally {
      await model.close();
    }
  });

  it("rethrows a used-up budget with the loop's message", async () => {
    const model = await startScriptedModel([
      { error: { status: 402, body: { error: { reason: "BUDGET_EXHAUSTED" } }, sticky: true } },
    ]);
    try {
      const config = { provider, baseUrl: model.baseUrl, runToken, model: "m" };
      await expect(completeOnce(config, { system: "S", user: "U" })).rejects.toThrow(
        "The run's model token budget is used up.",
      );
    } finally {
      await model.close();
    }
  });
});
