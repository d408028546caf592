import { describe, expect, it } from "vitest";
import { formatInZone, formatRelative, formatUtc, utcDay } from "./time-format.ts";

const at = new Date("2026-12-02T01:12:45.123Z");

describe("the one date formatter", () => {
  it("writes the exact time in UTC, en-GB, whatever the machine's time zone", () => {
    expect(formatUtc(at)).toBe("2 Dec 2026, 01:12 UTC");
    expect(formatUtc(new Date("2026-06-30T23:59:00Z"))).toBe("30 Jun 2026, 23:59 UTC");
    expect(formatUtc(new Date("2027-01-05T00:00:59Z"))).toBe("5 Jan 2027, 00:00 UTC");
    expect(formatUtc(null)).toBe("—");
    expect(formatUtc(undefined)).toBe("—");
  });

  it("writes relative times near now, both ways, and the exact time far from it", () => {
    const now = at.getTime();
    expect(formatRelative(new Date(now - 20_000), now)).toBe("just now");
    expect(formatRelative(new Date(now - 5 * 60_000), now)).toBe("5 min ago");
    expect(formatRelative(new Date(now + 3 * 3_600_000), now)).toBe("in 3 hr");
    expect(formatRelative(new Date(now - 24 * 3_600_000), now)).toBe("yesterday");
    expect(formatRelative(new Date(now - 3 * 24 * 3_600_000), now)).toBe("3 days ago");
    const old = new Date(now - 40 * 24 * 3_600_000);
    expect(formatRelative(old, now)).toBe(formatUtc(old));
  });

  it("writes a schedule's time in the job's own zone", () => {
    expect(formatInZone(at, "Europe/Berlin")).toBe("Wed 2 Dec 2026, 02:12");
    expect(formatInZone(at, "America/New_York")).toBe("Tue 1 Dec 2026, 20:12");
    expect(formatInZone(new Date("2026-03-01T00:30:00Z"), "UTC")).toBe("Sun 1 Mar 2026, 00:30");
  });

  it("writes a UTC day as ISO yyyy-mm-dd", () => {
    expect(utcDay(new Date("2026-12-02T23:30:00-05:00"))).toBe("2026-12-03");
  });
});
