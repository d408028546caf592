import { describe, expect, it } from "vitest";
import { AppError } from "@secondshift/errors";
import { nextFireTimes, validateSchedule } from "./cron.ts";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe("cron with IANA time zones (BullMQ's parser)", () => {
  it("keeps 09:00 Europe/Berlin at 09:00 local across the March change (08:00Z → 07:00Z)", () => {
    expect(
      iso(nextFireTimes("0 9 * * *", "Europe/Berlin", new Date("2026-03-27T12:00:00Z"), 3)),
    ).toEqual(["2026-03-28T08:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-30T07:00:00.000Z"]);
  });

  it("fires a local time skipped by the spring change once, just after the gap", () => {
    // 02:30 does not exist in Berlin on 2026-03-29; the fire happens at 03:30 CEST (01:30Z).
    expect(
      iso(nextFireTimes("30 2 * * *", "Europe/Berlin", new Date("2026-03-28T12:00:00Z"), 2)),
    ).toEqual(["2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"]);
  });

  it("fires a local time repeated by the autumn change once, not twice", () => {
    expect(
      iso(nextFireTimes("30 2 * * *", "Europe/Berlin", new Date("2026-10-24T12:00:00Z"), 2)),
    ).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("supports six-field (seconds) patterns", () => {
    expect(iso(nextFireTimes("*/2 * * * * *", "UTC", new Date("2026-01-01T00:00:00Z"), 2))).toEqual(
      ["2026-01-01T00:00:02.000Z", "2026-01-01T00:00:04.000Z"],
    );
  });

  it("rejects unknown zones and bad patterns with a clear BAD_REQUEST", () => {
    expect(() => validateSchedule("0 9 * * *", "Mars/Olympus")).toThrow(AppError);
    expect(() => validateSchedule("0 9 * * *", "Mars/Olympus")).toThrow(/Unknown time zone/);
    expect(() => validateSchedule("0 25 * * *", "UTC")).toThrow(/Invalid cron schedule/);
    expect(() => validateSchedule("0 9 * * *", "Europe/Berlin")).not.toThrow();
  });
});
