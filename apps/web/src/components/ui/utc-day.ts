// Day filters are written "YYYY-MM-DD" (ISO, so never read as month/day or day/month) and read
// in UTC (as every time on these pages), from the day's first to its last millisecond, for the
// API's since / until filters. Anything else (a day half typed, a wrong link) filters nothing.
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export function isUtcDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  // 2026-02-31 matches the pattern but is no day: Date rolls it over to March.
  return new Date(`${day}T00:00:00.000Z`).toISOString().startsWith(day);
}

export function dayStart(day: string): Date | undefined {
  return isUtcDay(day) ? new Date(`${day}T00:00:00.000Z`) : undefined;
}

export function dayEnd(day: string): Date | undefined {
  return isUtcDay(day) ? new Date(`${day}T23:59:59.999Z`) : undefined;
}
