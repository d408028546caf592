// GitHub's signatures carry no timestamp and the replay guard forgets a signature after its
// window: a delivery captured and replayed later would verify. So the object's own time
// (pull_request.updated_at, issue.updated_at, comment.created_at) must be recent (E04): older
// than the replay window, or too far in the future, starts nothing.

/** The replay guard remembers deliveries for 2 × 600 s: events older than that are stale. */
export const DEFAULT_MAX_EVENT_AGE_SECONDS = 1200;
/** Clocks differ; a little future is fine, much is a forged or broken payload. */
const MAX_FUTURE_MS = 5 * 60_000;

export function staleness(
  occurredAt: Date,
  now: Date,
  maxAgeSeconds = DEFAULT_MAX_EVENT_AGE_SECONDS,
): string | null {
  const ageMs = now.getTime() - occurredAt.getTime();
  if (ageMs > maxAgeSeconds * 1000)
    return `This event happened at ${occurredAt.toISOString()}, more than ${maxAgeSeconds} s ago; stale deliveries start nothing. Trigger the event again on GitHub instead of redelivering it.`;
  if (-ageMs > MAX_FUTURE_MS)
    return `This event's time (${occurredAt.toISOString()}) is more than 5 minutes in the future; it starts nothing. Check the sender's clock.`;
  return null;
}
