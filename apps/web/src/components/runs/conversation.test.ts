import { readTranscriptEvent } from "@secondshift/vocabulary";
import { describe, expect, it } from "vitest";
import { conversationRows } from "./conversation.ts";

const entry = (seq: number, type: string, payload: unknown) => ({
  seq,
  createdAt: new Date(0),
  event: readTranscriptEvent(type, payload),
});
const turn = (text: string) => ({
  turn: 1,
  text,
  stopReason: "end_turn",
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 1 },
});

describe("conversationRows", () => {
  const answer = [
    entry(0, "model_turn", turn("Fixed it.")),
    entry(1, "final_answer", { summary: "Fixed it." }),
    entry(2, "message", { text: "Fixed it." }),
  ];

  it("before the run summary has it: the answer once, at its first line", () => {
    const rows = conversationRows(answer, { summary: null, error: null });
    expect(rows.map((r) => r.repeats)).toEqual([null, "earlier", null]);
  });

  it("once the run summary shows it, every line repeating it points there", () => {
    const rows = conversationRows(answer, { summary: " Fixed it.\n", error: null });
    expect(rows.map((r) => r.repeats)).toEqual(["result", "result", null]);
  });

  it("a failure's error: once in the run summary, the events point to it", () => {
    const rows = conversationRows(
      [
        entry(0, "error", { message: "gave up", outcome: "failed" }),
        entry(1, "agent_finished", {
          outcome: "failed",
          usage: { inputTokens: 0, outputTokens: 0 },
          error: "gave up",
        }),
        entry(2, "status", { status: "FAILED", error: "gave up" }),
        entry(3, "status", { status: "RUNNING" }),
      ],
      { summary: null, error: "gave up" },
    );
    expect(rows.map((r) => r.repeats)).toEqual(["error", "error", "error", null]);
  });
});
