// "What changed since the last approval" (issue #13): the job's last approval — active, left
// behind by a sync that changed the request, or revoked — and, per group, the tools new since
// then, no longer requested, and unchanged, in sentences an owner who is not a developer reads.
import { formatUtc } from "../ui/time-format.ts";
import { changeSentences, type GroupChange } from "./review-words.ts";

export interface LastApproval {
  approvedAt: Date;
  revokedAt: Date | null;
  sameRequest: boolean;
}

function approvalWords(last: LastApproval): string {
  const when = formatUtc(last.approvedAt);
  const revoked = last.revokedAt ? `, revoked on ${formatUtc(last.revokedAt)}` : "";
  return last.sameRequest
    ? `This exact request was approved on ${when}${revoked}.`
    : `The repository changed this job's request since the last approval (${when}${revoked}). It needs a new approval; here is what changed:`;
}

export function ReviewChanges({
  lastApproval,
  changes,
  status,
}: {
  lastApproval: LastApproval | null;
  changes: GroupChange[];
  status: string;
}) {
  if (!lastApproval) {
    return (
      <p className="mt-2">
        {status === "NEEDS_APPROVAL"
          ? "This job has not been approved before: everything below is new."
          : "No approval is active for this job."}
      </p>
    );
  }
  const sentences = changes.flatMap((c) => changeSentences(c, lastApproval.sameRequest));
  return (
    <div className="mt-2" data-testid="review-changes">
      <p>{approvalWords(lastApproval)}</p>
      {sentences.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {sentences.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1">It asks for no tool at all, then and now.</p>
      )}
    </div>
  );
}
