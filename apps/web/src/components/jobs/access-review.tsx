"use client";
// The access review: per requested group the connection it binds to (a picker when several
// fit; preselected only when the API proposes one — exactly one fits), per tool whether it may
// change data, the outputs and triggers it asks for, what changed since the last approval, and —
// for owners only — approve, reject and revoke. Everyone else reads the same review without any
// control; the API refuses their decisions anyway (C02).
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { EmptyState } from "../ui/states.tsx";
import { StatusNote } from "../ui/status-note.tsx";
import { ReviewChanges, type LastApproval } from "./review-changes.tsx";
import {
  choiceFromGrant,
  ReviewOutputs,
  type OutputChoice,
  type ReviewOutputsData,
} from "./review-outputs.tsx";
import { ReviewGroupCard, type Choice, type ConnectionFacts, type Group } from "./review-group.tsx";
import { ReviewTriggers, type ReviewTriggersData } from "./review-triggers.tsx";
import { triggerSentences } from "./trigger-words.ts";
import {
  accessSentences,
  groupTitle,
  listInWords,
  outputSentences,
  toolWords,
  type GroupChange,
} from "./review-words.ts";

export function AccessReview({ workspaceId, jobId }: { workspaceId: string; jobId: string }) {
  const trpc = useTRPC();
  const { data: review } = useSuspenseQuery(trpc.jobs.review.queryOptions({ workspaceId, jobId }));
  const { data: connections } = useSuspenseQuery(
    trpc.connections.list.queryOptions({ workspaceId }),
  );
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      review.groups.map((g) => [g.key, { connectionId: g.connection?.id ?? "", unchecked: [] }]),
    ),
  );
  const facts = new Map<string, ConnectionFacts>(connections.map((c) => [c.id, c]));
  // Preselected from the current grant; a kind never granted starts unchecked.
  const [outputChoice, setOutputChoice] = useState<OutputChoice>(() =>
    choiceFromGrant(review.outputs.granted),
  );

  return (
    <section aria-labelledby="review-heading" className="flex flex-col gap-4">
      <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
        Access review
      </h2>
      <ReviewSummary review={review} />
      {review.groups.length === 0 ? (
        <EmptyState title="This job asks for no tools">
          It can only think and write its report; approving it grants no access to any service.
        </EmptyState>
      ) : (
        review.groups.map((group) => (
          <ReviewGroupCard
            key={group.key}
            group={group}
            change={review.changes.find((c) => c.key === group.key)}
            facts={facts}
            choice={choices[group.key] ?? { connectionId: "", unchecked: [] }}
            editable={review.canApprove}
            onChange={(choice) => setChoices((all) => ({ ...all, [group.key]: choice }))}
          />
        ))
      )}
      <ReviewOutputs
        outputs={review.outputs}
        choice={outputChoice}
        editable={review.canApprove}
        onChange={setOutputChoice}
      />
      <ReviewTriggers triggers={review.triggers} jobKey={review.job.key} />
      {review.canApprove ? (
        <Decisions
          workspaceId={workspaceId}
          review={review}
          choices={choices}
          facts={facts}
          outputs={outputChoice}
        />
      ) : (
        <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-700">
          Only a workspace owner can approve, reject or revoke this job&apos;s access.
        </p>
      )}
    </section>
  );
}

interface Review {
  job: {
    id: string;
    key: string;
    name: string;
    status: string;
    requestHash: string;
    repositoryFullName: string;
  };
  grant: { id: string; approvedAt: Date } | null;
  groups: Group[];
  lastApproval: LastApproval | null;
  changes: Array<GroupChange & { key: string }>;
  outputs: ReviewOutputsData;
  triggers: ReviewTriggersData;
  canApprove: boolean;
}

function ReviewSummary({ review }: { review: Review }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800">
      <p>
        Requested by <span className="font-mono">{review.job.repositoryFullName}</span>&apos;s
        .secondshift.yaml. A repository can only ask; nothing is used until an owner approves.
      </p>
      <ReviewChanges
        lastApproval={review.lastApproval}
        changes={review.changes}
        status={review.job.status}
      />
    </div>
  );
}

function Decisions({
  workspaceId,
  review,
  choices,
  facts,
  outputs,
}: {
  workspaceId: string;
  review: Review;
  choices: Record<string, Choice>;
  facts: Map<string, ConnectionFacts>;
  outputs: OutputChoice;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<"approve" | "reject" | "revoke" | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = async () => {
    setDialog(null);
    await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.connections.pathKey() });
  };
  const approve = useMutation(
    trpc.jobs.approve.mutationOptions({
      onSuccess: async (result) => {
        const missing = result.groups.flatMap((g) => g.missing.map(toolWords));
        setDone(
          `Approved. The job may now run with the access shown.${missing.length > 0 ? ` Not granted: ${listInWords(missing)}.` : ""}`,
        );
        await refresh();
      },
    }),
  );
  const reject = useMutation(
    trpc.jobs.reject.mutationOptions({
      onSuccess: async () => {
        setDone("Rejected. The job will not run; any earlier approval is revoked.");
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.jobs.revokeGrant.mutationOptions({
      onSuccess: async () => {
        setDone("Approval revoked. Running runs stop at their next tool call.");
        await refresh();
      },
    }),
  );
  const error = approve.error ?? reject.error ?? revoke.error;

  const plan = review.groups.map((group) => {
    const choice = choices[group.key] ?? { connectionId: "", unchecked: [] };
    const connection = facts.get(choice.connectionId);
    const tools = group.tools
      .filter(
        (t) => connection?.allowedTools.includes(t.name) && !choice.unchecked.includes(t.name),
      )
      .map((t) => ({
        name: t.name,
        mayChangeData:
          connection?.discoveredTools.find((d) => d.name === t.name)?.mayChangeData ?? true,
      }));
    return { group, choice, connection, tools };
  });
  const unboundRequired = plan.filter((p) => p.group.required && !p.connection);

  function sendApproval() {
    approve.mutate({
      workspaceId,
      jobId: review.job.id,
      requestHash: review.job.requestHash,
      bindings: Object.fromEntries(
        plan.filter((p) => p.connection).map((p) => [p.group.key, p.choice.connectionId]),
      ),
      tools: Object.fromEntries(plan.map((p) => [p.group.key, p.tools.map((t) => t.name)])),
      outputs,
    });
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => {
            setDone(null);
            setDialog("approve");
          }}
          disabled={unboundRequired.length > 0}
        >
          {review.grant ? "Approve again with these choices" : "Approve"}
        </Button>
        <Button
          tone="secondary"
          onClick={() => {
            setDone(null);
            setDialog("reject");
          }}
        >
          Reject
        </Button>
        {review.grant ? (
          <Button
            tone="danger"
            onClick={() => {
              setDone(null);
              setDialog("revoke");
            }}
          >
            Revoke approval
          </Button>
        ) : null}
      </div>
      {unboundRequired.length > 0 ? (
        <p className="text-sm text-amber-900">
          Choose a connection for {listInWords(unboundRequired.map((p) => groupTitle(p.group)))}{" "}
          before approving.
        </p>
      ) : null}
      <StatusNote message={done} />
      {error ? <StatusNote tone="bad" message={errorMessage(error)} /> : null}
      <ConfirmDialog
        open={dialog === "approve"}
        title={`Approve "${review.job.name}"?`}
        confirmLabel="Approve"
        pending={approve.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={sendApproval}
      >
        <ul className="list-disc pl-5">
          {plan.map((p) => (
            <li key={p.group.key}>
              {p.connection
                ? accessSentences(
                    `${groupTitle(p.group)} (connection "${p.connection.label}")`,
                    p.tools,
                  ).join(" ")
                : `${groupTitle(p.group)}: no connection, nothing granted.`}
            </li>
          ))}
          {outputSentences(outputs).map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
          {triggerSentences(review.triggers.requested, review.job.key).map((sentence) => (
            <li key={sentence}>Trigger: {sentence}.</li>
          ))}
        </ul>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === "reject"}
        title={`Reject "${review.job.name}"?`}
        confirmLabel="Reject"
        tone="danger"
        pending={reject.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => reject.mutate({ workspaceId, jobId: review.job.id })}
      >
        The job will not run. Any approval it has is revoked and its running runs stop.
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === "revoke"}
        title="Revoke this job's approval?"
        confirmLabel="Revoke approval"
        tone="danger"
        pending={revoke.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => review.grant && revoke.mutate({ workspaceId, grantId: review.grant.id })}
      >
        The job loses its access at once: running runs stop at their next tool call, and it needs a
        new approval to run again.
      </ConfirmDialog>
    </div>
  );
}
