import { describe, expect, expectTypeOf, it } from "vitest";
import {
  isFinalStatusEvent,
  readTranscriptEvent,
  TRANSCRIPT_PAYLOADS,
  type TranscriptPayload,
} from "./transcript.ts";

const toolCall: TranscriptPayload<"tool_call"> = {
  turn: 1,
  callId: "c1",
  name: "shell",
  arguments: { command: "ls" },
};

describe("readTranscriptEvent", () => {
  it("narrows a stored event to its type's payload", () => {
    const event = readTranscriptEvent("tool_call", toolCall);
    expect(event).toEqual({ type: "tool_call", payload: toolCall });
    if (event.type !== "tool_call") throw new Error("not narrowed");
    expectTypeOf(event.payload.callId).toEqualTypeOf<string>();
  });

  it("keeps an unknown type, or a payload that is not its type's shape, as `other`", () => {
    expect(readTranscriptEvent("log", { i: 1 })).toEqual({
      type: "other",
      storedType: "log",
      payload: { i: 1 },
    });
    const partial = { turn: 1, name: "shell" };
    expect(readTranscriptEvent("tool_call", partial)).toEqual({
      type: "other",
      storedType: "tool_call",
      payload: partial,
    });
    expect(readTranscriptEvent("status", { status: "DONE" }).type).toBe("other");
  });

  it("does not take an inherited property for an event type", () => {
    expect(readTranscriptEvent("toString", {}).type).toBe("other");
    expect(Object.keys(TRANSCRIPT_PAYLOADS)).not.toContain("other");
  });
});

describe("isFinalStatusEvent", () => {
  it("is true only for a status event whose status ends the run", () => {
    const final = readTranscriptEvent("status", {
      status: "FAILED",
      transition: "fail",
      error: "x",
    });
    const cancel = readTranscriptEvent("status", { status: "RUNNING", cancelRequested: true });
    const finished = readTranscriptEvent("run_finished", { status: "SUCCEEDED" });
    expect([final, cancel, finished].map(isFinalStatusEvent)).toEqual([true, false, false]);
  });
});
