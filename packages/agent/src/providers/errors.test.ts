import { APIConnectionError } from "openai";
import { describe, expect, it } from "vitest";
import { classifyModelError } from "./errors.ts";

const budget = { code: "PAYMENT_REQUIRED", reason: "BUDGET_EXHAUSTED", message: "used up" };

describe("classifyModelError", () => {
  it("reads the budget reason from the whole body (Anthropic SDK) or its error member (OpenAI SDK)", () => {
    expect(classifyModelError({ status: 429, error: { error: budget } }).outcome).toBe(
      "budget_exhausted",
    );
    expect(classifyModelError({ status: 429, error: budget }).outcome).toBe("budget_exhausted");
    expect(classifyModelError({ status: 402, error: undefined }).outcome).toBe("budget_exhausted");
  });

  it("treats other 429s, 5xx and unreachable gateways as failures with the gateway's message", () => {
    const limited = classifyModelError({
      status: 429,
      error: { error: { reason: "RUN_PARALLEL_LIMIT", message: "wait" } },
    });
    expect(limited.outcome).toBe("failed");
    expect(limited.message).toBe("The model call failed with HTTP 429: wait");
    expect(classifyModelError({ status: 502, error: { message: "down" } }).message).toContain(
      "HTTP 502: down",
    );
    expect(
      classifyModelError(new APIConnectionError({ message: "Connection error." })).message,
    ).toBe("The model gateway could not be reached: Connection error.");
    expect(classifyModelError(new Error("The model returned no choices.")).message).toBe(
      "The model call failed: The model returned no choices.",
    );
  });

  it("explains a refused run token", () => {
    const stop = classifyModelError({
      status: 401,
      error: { error: { reason: "RUN_TOKEN_INVALID" } },
    });
    expect(stop.outcome).toBe("failed");
    expect(stop.message).toMatch(/revoked or expired/);
  });
});
