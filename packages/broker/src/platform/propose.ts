// The proposal tools (O01, O02): a call records a RunOutput (PROPOSED) and nothing else; the
// finalize checks and the apply worker take it from there, after the run. The count limit is
// exact: `seq` is unique per run, so two calls racing for the same seq cannot both be stored,
// and the loser counts again.
import { Prisma, type Db } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import {
  OUTPUT_CAPS,
  PLATFORM_TOOLS,
  type CommentProposal,
  type IssueProposal,
  type OutputKind,
} from "@secondshift/vocabulary";
import { planOutputs, type FrozenPlan } from "../plan.ts";
import type { PlatformRun, PlatformTool, PlatformToolContext, PlatformToolOutput } from "./tool.ts";

export const NOT_YET =
  "Nothing has been posted yet: it will be applied after the run ends, or held until an owner approves it.";

/**
 * Which issue or pull request a comment may go to. `target: "triggering"` narrows runs started
 * by an event to the event's own issue or pull request; a scheduled or manual run has no
 * triggering item, so any number of the job's own repository is allowed.
 */
export function commentTargetAllowed(plan: FrozenPlan, number: number): boolean {
  const target = planOutputs(plan).comment?.target;
  if (target !== "triggering" || plan.event === undefined) return true;
  return plan.event.subjectNumber === number;
}

const MAX_ATTEMPTS = 5;

/** What a proposal tool stores; a pull request's files are added at finalize. */
export type StoredProposal = CommentProposal | IssueProposal | { title: string; body: string };

export async function storeProposal(
  db: Db,
  run: PlatformRun,
  proposal: { kind: OutputKind; max: number; payload: StoredProposal },
): Promise<{ id: string } | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const existing = await tx.runOutput.findMany({
          where: { runId: run.id, workspaceId: run.workspaceId },
          select: { seq: true, kind: true },
        });
        if (existing.filter((o) => o.kind === proposal.kind).length >= proposal.max) return null;
        const seq = existing.reduce((top, o) => Math.max(top, o.seq + 1), 0);
        const output = await tx.runOutput.create({
          data: {
            workspaceId: run.workspaceId,
            runId: run.id,
            jobId: run.jobId,
            seq,
            kind: proposal.kind,
            payload: proposal.payload as unknown as Prisma.InputJsonValue,
          },
          select: { id: true },
        });
        await recordAudit(tx, {
          workspaceId: run.workspaceId,
          actorType: "RUN",
          actorId: run.id,
          action: "output.proposed",
          targetType: "RunOutput",
          targetId: output.id,
          targetLabel: proposal.kind,
          outcome: "proposed",
        });
        return output;
      });
    } catch (error) {
      const seqTaken =
        error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
      if (!seqTaken || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/** The arguments of a proposal with a title and a body (an issue, a pull request). */
export const TITLE_AND_BODY = {
  type: "object",
  properties: {
    title: { type: "string", minLength: 1, maxLength: OUTPUT_CAPS.maxTitleLength },
    body: { type: "string", maxLength: OUTPUT_CAPS.maxBodyLength },
  },
  required: ["title", "body"],
  additionalProperties: false,
};

export const limitReached = (max: number, what: string): PlatformToolOutput => ({
  text: `Not recorded: this run may propose at most ${max} ${what}, and it already has.`,
  isError: true,
});

export const proposeCommentTool: PlatformTool = {
  name: PLATFORM_TOOLS.propose_comment.name,
  description: `Propose a comment on an issue or pull request of this job's repository. ${NOT_YET}`,
  inputSchema: {
    type: "object",
    properties: {
      number: { type: "integer", minimum: 1, description: "The issue or pull request number." },
      body: { type: "string", minLength: 1, maxLength: OUTPUT_CAPS.maxBodyLength },
    },
    required: ["number", "body"],
    additionalProperties: false,
  },
  grantedBy: (plan) => planOutputs(plan).comment !== undefined,
  async call(ctx: PlatformToolContext, args): Promise<PlatformToolOutput> {
    const grant = planOutputs(ctx.plan).comment;
    if (!grant) return { text: "This run may not propose comments.", isError: true };
    const payload: CommentProposal = { number: args.number as number, body: args.body as string };
    if (!commentTargetAllowed(ctx.plan, payload.number))
      return {
        text: `Not recorded: this run may comment only on the ${ctx.plan.event?.subjectType === "pull_request" ? "pull request" : "issue"} that started it, #${ctx.plan.event?.subjectNumber}.`,
        isError: true,
      };
    const stored = await storeProposal(ctx.db, ctx.run, {
      kind: "comment",
      max: grant.max,
      payload,
    });
    if (!stored) return limitReached(grant.max, grant.max === 1 ? "comment" : "comments");
    return { text: `Comment on #${payload.number} proposed. ${NOT_YET}`, isError: false };
  },
};

export const proposeIssueTool: PlatformTool = {
  name: PLATFORM_TOOLS.propose_issue.name,
  description: `Propose a new issue in this job's repository. The title gets the owner's prefix and the issue the owner's labels. ${NOT_YET}`,
  inputSchema: TITLE_AND_BODY,
  grantedBy: (plan) => planOutputs(plan).issue !== undefined,
  async call(ctx: PlatformToolContext, args): Promise<PlatformToolOutput> {
    const grant = planOutputs(ctx.plan).issue;
    if (!grant) return { text: "This run may not propose issues.", isError: true };
    const title = `${grant.titlePrefix}${args.title as string}`;
    if (title.length > OUTPUT_CAPS.maxTitleLength)
      return {
        text: `Not recorded: with the prefix "${grant.titlePrefix}" the title is longer than ${OUTPUT_CAPS.maxTitleLength} characters; shorten it.`,
        isError: true,
      };
    const payload: IssueProposal = { title, body: args.body as string, labels: [...grant.labels] };
    const stored = await storeProposal(ctx.db, ctx.run, { kind: "issue", max: grant.max, payload });
    if (!stored) return limitReached(grant.max, grant.max === 1 ? "issue" : "issues");
    return { text: `Issue "${title}" proposed. ${NOT_YET}`, isError: false };
  },
};
