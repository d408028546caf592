import { describe, expect, it } from "vitest";
import { isSchedulable, type SchedulableJob } from "./schedulable.ts";
import { scheduleView } from "./schedule.ts";

const scheduled: SchedulableJob = {
  status: "APPROVED",
  enabled: true,
  removedAt: null,
  schedule: "0 9 * * *",
};

/** Each way a job stops being schedulable, one field changed from a scheduled job. */
const notSchedulable: Array<[string, Partial<SchedulableJob>]> = [
  ["waiting for approval", { status: "NEEDS_APPROVAL" }],
  ["rejected", { status: "REJECTED" }],
  ["removed by the repository", { status: "REMOVED", removedAt: new Date() }],
  ["marked removed while still approved", { removedAt: new Date() }],
  ["paused", { enabled: false }],
  ["without a schedule", { schedule: null }],
];

describe("isSchedulable", () => {
  it("is true for an approved, enabled job with a schedule that is not removed", () => {
    expect(isSchedulable(scheduled)).toBe(true);
  });

  it.for(notSchedulable)("is false for a job %s", ([, change]) => {
    expect(isSchedulable({ ...scheduled, ...change })).toBe(false);
  });

  it("decides which jobs the screens predict fires for", () => {
    const now = new Date("2026-03-27T12:00:00Z");
    const view = (change: Partial<SchedulableJob>) =>
      scheduleView({ ...scheduled, ...change, timezone: "UTC" }, now);
    expect(view({}).nextFireTimes).toHaveLength(3);
    for (const [, change] of notSchedulable) expect(view(change).nextFireTimes).toEqual([]);
  });
});
