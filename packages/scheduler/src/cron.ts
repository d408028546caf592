// Cron handling goes through BullMQ's own `getNextMillis` (cron-parser with the IANA time
// zone), so what we validate and predict is exactly what the job scheduler will do.
import { getNextMillis } from "bullmq";
import { AppError } from "@secondshift/errors";

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a BAD_REQUEST AppError when the pattern (5 fields, or 6 with seconds) or the time
 * zone is not usable. cron-parser's own message for an unknown zone is cryptic, so the zone
 * is checked first with Intl.
 */
export function validateSchedule(pattern: string, tz: string): void {
  if (!isValidTimeZone(tz)) {
    throw new AppError(
      "BAD_REQUEST",
      `Unknown time zone "${tz}": use an IANA name such as Europe/Berlin.`,
      {
        reason: "INVALID_TIMEZONE",
      },
    );
  }
  try {
    const next = getNextMillis(Date.now(), { pattern, tz });
    if (next === undefined) throw new Error("the pattern never fires");
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AppError("BAD_REQUEST", `Invalid cron schedule "${pattern}": ${detail}.`, {
      reason: "INVALID_CRON",
      cause: error,
    });
  }
}

/** The next fire times: one function for the scheduler and the owner API (jobs.list). */
export { nextFireTimes } from "@secondshift/domain";
