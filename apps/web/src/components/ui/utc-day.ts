// Date inputs give "YYYY-MM-DD"; the day is read in UTC (as every time on these pages), from
// its first to its last millisecond, for the API's since / until filters.
export function dayStart(day: string): Date | undefined {
  return day ? new Date(`${day}T00:00:00.000Z`) : undefined;
}

export function dayEnd(day: string): Date | undefined {
  return day ? new Date(`${day}T23:59:59.999Z`) : undefined;
}
