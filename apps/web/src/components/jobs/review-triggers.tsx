// The access review's "Triggers" section (issue #25 item 2): each event the job asks to run on,
// in words. Approving the job approves them (they are part of its request: adding or widening
// one needs a new approval). Events come from GitHub only, so a repository fetched over plain
// git is told its triggers never fire. Who may set them off (people without write access) is
// the owner's separate choice on the job page: the review says so. The job page shows the same
// section (`heading` "h2" there) above the job's events.
import { OUTSIDER_EVENTS_NOTE, type RequestedTriggers } from "@secondshift/vocabulary";
import { useId } from "react";
import { triggerSentences } from "./trigger-words.ts";

export interface ReviewTriggersData {
  requested: RequestedTriggers;
  eventsAvailable: boolean;
  eventsUnavailableReason: string | null;
}

export function ReviewTriggers({
  triggers,
  jobKey,
  children,
}: {
  triggers: ReviewTriggersData;
  jobKey: string;
  /** Shown under the list instead of the outsider note (the job page puts its toggle here). */
  children?: React.ReactNode;
}) {
  const headingId = useId();
  const sentences = triggerSentences(triggers.requested, jobKey);
  if (sentences.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800"
    >
      <h3 id={headingId} className="font-semibold text-slate-900">
        Triggers
      </h3>
      {!triggers.eventsAvailable && triggers.eventsUnavailableReason ? (
        <p className="mt-2 rounded-md bg-amber-50 p-2 text-amber-900">
          {triggers.eventsUnavailableReason}
        </p>
      ) : null}
      <ul className="mt-2 list-disc pl-5">
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      {children ?? <p className="mt-2 text-slate-600">{OUTSIDER_EVENTS_NOTE}</p>}
    </section>
  );
}
