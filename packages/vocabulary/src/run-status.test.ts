import { describe, expect, it } from "vitest";
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  isActive,
  isFinal,
  isRunStatus,
  RUN_STATUSES,
} from "./run-status.ts";
import { TRANSITION_NAMES, TRANSITIONS } from "./transitions.ts";

describe("run statuses", () => {
  it("are each either active or final, never both", () => {
    expect([...ACTIVE_STATUSES, ...FINAL_STATUSES].sort()).toEqual([...RUN_STATUSES].sort());
    for (const status of RUN_STATUSES) expect(isActive(status)).toBe(!isFinal(status));
  });

  it("are known only by their exact spelling", () => {
    expect(RUN_STATUSES.every(isRunStatus)).toBe(true);
    expect(["queued", "DONE", "", undefined].some(isRunStatus)).toBe(false);
  });
});

describe("transitions", () => {
  it("never leave a final status", () => {
    for (const name of TRANSITION_NAMES) {
      expect(TRANSITIONS[name].from.filter(isFinal), name).toEqual([]);
    }
  });

  it("finish may record any final status and nothing else", () => {
    expect(TRANSITIONS.finish.to).toEqual(FINAL_STATUSES);
  });
});
