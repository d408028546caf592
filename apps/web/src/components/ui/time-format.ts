// The web app's one way to write a point in time. The exact form is UTC in a fixed locale
// ("2 Dec 2026, 01:12 UTC"), so the server's HTML and the browser's first render are the same
// text whatever the machine's locale or time zone (a locale-dependent toLocaleString rendered on
// the server is a hydration mismatch, React's error #418). The relative form ("5 min ago")
// depends on the clock, so only the browser uses it, after hydration (Timestamp).
// Assembled by hand from the date's numbers, not by Intl's date patterns: Node's and the
// browser's ICU data may differ in a comma or a space, and either is a hydration mismatch.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const two = (n: number) => String(n).padStart(2, "0");

function written(f: Fields): string {
  return `${f.day} ${MONTHS[f.month - 1]} ${f.year}, ${two(f.hour)}:${two(f.minute)}`;
}

const relative = new Intl.RelativeTimeFormat("en-GB", { numeric: "auto", style: "short" });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Past this distance a relative time says less than the date itself. */
const RELATIVE_LIMIT = 30 * DAY;

/** "2 Dec 2026, 01:12 UTC"; "—" for a time that is not there. */
export function formatUtc(value: Date | null | undefined): string {
  if (!value) return "—";
  return `${written({
    year: value.getUTCFullYear(),
    month: value.getUTCMonth() + 1,
    day: value.getUTCDate(),
    hour: value.getUTCHours(),
    minute: value.getUTCMinutes(),
  })} UTC`;
}

/** A job's next fire in the job's own time zone: "Wed 2 Dec 2026, 09:00" (no relative form). */
export function formatInZone(value: Date, timeZone: string): string {
  // Intl gives the numbers in that zone (numbers are the same in every ICU); the words are ours.
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(value);
  const n = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const f = {
    year: n("year"),
    month: n("month"),
    day: n("day"),
    hour: n("hour"),
    minute: n("minute"),
  };
  // The weekday of that calendar day (noon UTC keeps it on the same date).
  const weekday = WEEKDAYS[new Date(Date.UTC(f.year, f.month - 1, f.day, 12)).getUTCDay()];
  return `${weekday} ${written(f)}`;
}

/** "just now", "5 min ago", "in 3 hr", "yesterday"; the exact UTC time when far from `now`. */
export function formatRelative(value: Date, now: number): string {
  const diff = value.getTime() - now;
  const distance = Math.abs(diff);
  if (distance < MINUTE) return "just now";
  if (distance >= RELATIVE_LIMIT) return formatUtc(value);
  if (distance < HOUR) return relative.format(Math.trunc(diff / MINUTE), "minute");
  if (distance < DAY) return relative.format(Math.trunc(diff / HOUR), "hour");
  return relative.format(Math.trunc(diff / DAY), "day");
}

/** A UTC day as the filters write it: "2026-12-02". */
export function utcDay(value: Date): string {
  return value.toISOString().slice(0, 10);
}
