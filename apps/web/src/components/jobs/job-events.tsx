"use client";
// The job page's triggers and events (issue #25 item 7): the job's triggers in the access
// review's words, the owner's outsider toggle beside them, and the last events that met the
// job — queued (with its run), superseded, or dropped and why. The panel asks again every few
// seconds while the page is open, as the other live panels do.
import { can, runPagePath, type Role } from "@secondshift/vocabulary";
import type { AppRouter } from "@secondshift/api";
import { useSuspenseQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useTRPC } from "../../trpc/react.tsx";
import { shortId } from "../runs/format.ts";
import { EmptyState } from "../ui/states.tsx";
import { SafeLink } from "../ui/safe-link.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { actorWords, dropWords, eventKindWords } from "./event-words.ts";
import { OutsiderEventsToggle } from "./outsider-events.tsx";
import { ReviewTriggers } from "./review-triggers.tsx";
import { triggerSentences } from "./trigger-words.ts";

export const EVENTS_POLL_MS = 5_000;

type JobEvent = inferRouterOutputs<AppRouter>["jobs"]["events"]["events"][number];

export function JobEvents(props: { workspaceId: string; jobId: string; role: Role }) {
  const trpc = useTRPC();
  const input = { workspaceId: props.workspaceId, jobId: props.jobId };
  const { data } = useSuspenseQuery({
    ...trpc.jobs.events.queryOptions(input),
    refetchInterval: EVENTS_POLL_MS,
  });
  const hasTriggers = triggerSentences(data.triggers.requested, data.jobKey).length > 0;
  return (
    <section aria-labelledby="events-heading" className="flex flex-col gap-3">
      <h2 id="events-heading" className="text-base font-semibold text-slate-900">
        Triggers and events
      </h2>
      {hasTriggers ? (
        <ReviewTriggers triggers={data.triggers} jobKey={data.jobKey}>
          <div className="mt-3">
            <OutsiderEventsToggle
              workspaceId={props.workspaceId}
              jobId={props.jobId}
              allowed={data.allowOutsiderEvents}
              canChange={can(props.role, "operate")}
            />
          </div>
        </ReviewTriggers>
      ) : (
        <EmptyState title="No triggers">
          This job runs on its schedule or when someone presses Run now. To run it when something
          happens on GitHub, add <code>on:</code> to the job in the repository&apos;s{" "}
          <code>.secondshift.yaml</code> (a pull request, an issue, or a comment command{" "}
          <code>/secondshift {data.jobKey}</code>), then approve the job again.
        </EmptyState>
      )}
      {data.events.length === 0 ? (
        hasTriggers ? (
          <p className="text-sm text-slate-600">
            No event has matched this job yet. Events that match its triggers appear here, with what
            came of them.
          </p>
        ) : null
      ) : (
        <EventsTable workspaceId={props.workspaceId} events={data.events} />
      )}
    </section>
  );
}

function EventsTable({ workspaceId, events }: { workspaceId: string; events: JobEvent[] }) {
  return (
    <Table caption="Recent events">
      <thead>
        <tr>
          <Th>Received</Th>
          <Th>Event</Th>
          <Th>On</Th>
          <Th>Sent by</Th>
          <Th>Outcome</Th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <Tr key={event.id}>
            <Td className="whitespace-nowrap">
              <Timestamp value={event.receivedAt} />
            </Td>
            <Td>{eventKindWords(event.kind, event.action)}</Td>
            <Td>
              <SafeLink href={event.subjectUrl}>
                #{event.subjectNumber} {event.subjectTitle}
              </SafeLink>
            </Td>
            <Td>{actorWords(event)}</Td>
            <Td>
              <Outcome workspaceId={workspaceId} event={event} />
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

function Outcome({ workspaceId, event }: { workspaceId: string; event: JobEvent }) {
  if (event.outcome === "queued" && event.runId) {
    return (
      <>
        Queued:{" "}
        <Link
          href={runPagePath(workspaceId, event.runId)}
          className="font-mono text-indigo-700 underline"
        >
          run {shortId(event.runId)}
        </Link>
      </>
    );
  }
  if (event.outcome === "superseded" && event.runId === null) {
    return <>Superseded: it arrived after a newer event for this pull request had its run.</>;
  }
  if (event.outcome === "superseded") {
    return <>Superseded: newer commits arrived before its run started.</>;
  }
  if (event.outcome === "queued") return <>Queued.</>;
  return <>{dropWords(event.dropReason)}</>;
}
