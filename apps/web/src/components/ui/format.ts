// Dates and times as text, the same on the server and in the browser (UTC, fixed locale), so
// server-rendered HTML and the hydrated page agree.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  dateStyle: "medium",
  timeStyle: "short",
});

export function formatDateTime(date: Date): string {
  return `${dateTime.format(date)} UTC`;
}
