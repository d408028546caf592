// The event that started an EVENT run: what it was, on which pull request or issue (linked),
// who sent it and their permission, and the commit it ran on. Titles and logins are written by
// others: React text only, the link only if it is http(s).
import type { AppRouter } from "@secondshift/api";
import type { inferRouterOutputs } from "@trpc/server";
import { actorWords, eventKindWords } from "../jobs/event-words.ts";
import { SafeLink } from "../ui/safe-link.tsx";
import { Timestamp } from "../ui/timestamp.tsx";

type RunEventView = NonNullable<inferRouterOutputs<AppRouter>["runs"]["get"]["event"]>;

export function RunEvent({ event }: { event: RunEventView }) {
  return (
    <section
      aria-labelledby="run-event-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
    >
      <h2 id="run-event-heading" className="text-base font-semibold text-slate-900">
        Started by an event
      </h2>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1">
        <dt className="text-slate-600">Event</dt>
        <dd>{eventKindWords(event.kind, event.action)}</dd>
        <dt className="text-slate-600">On</dt>
        <dd>
          <SafeLink href={event.subjectUrl}>
            #{event.subjectNumber} {event.subjectTitle}
          </SafeLink>
        </dd>
        <dt className="text-slate-600">Sent by</dt>
        <dd>{actorWords(event)}</dd>
        <dt className="text-slate-600">Head commit</dt>
        <dd className="font-mono">{event.headSha ? event.headSha.slice(0, 12) : "—"}</dd>
        <dt className="text-slate-600">Received</dt>
        <dd>
          <Timestamp value={event.receivedAt} />
        </dd>
      </dl>
    </section>
  );
}
