// The pull-request proposal tool (issue #24 phase (b), O01/O02): the model names only a title
// and a body. Which changes, which repository and which branches are not its to say: at
// finalize the worker takes the run's changes from the sandbox's files against the run commit
// (its own copy), the job's repository, the default branch as base and `secondshift/<job>-<run>`
// as head. One pull request per run.
import { PLATFORM_TOOLS } from "@secondshift/vocabulary";
import { planOutputs } from "../plan.ts";
import { limitReached, NOT_YET, storeProposal, TITLE_AND_BODY } from "./propose.ts";
import type { PlatformTool, PlatformToolContext, PlatformToolOutput } from "./tool.ts";

export const proposePullRequestTool: PlatformTool = {
  name: PLATFORM_TOOLS.propose_pull_request.name,
  description: `Propose that this run's changes to the repository's files become one pull request with this title and body, on a new branch. Make every change first: the pull request holds the files as they are when the run ends (at most the owner's file and line limits). ${NOT_YET}`,
  inputSchema: TITLE_AND_BODY,
  grantedBy: (plan) => planOutputs(plan).pull_request !== undefined,
  async call(ctx: PlatformToolContext, args): Promise<PlatformToolOutput> {
    const grant = planOutputs(ctx.plan).pull_request;
    if (!grant) return { text: "This run may not propose pull requests.", isError: true };
    const payload = { title: args.title as string, body: args.body as string };
    const stored = await storeProposal(ctx.db, ctx.run, { kind: "pull_request", max: 1, payload });
    if (!stored) return limitReached(1, "pull request");
    return {
      text: `Pull request "${payload.title}" proposed with the changes the files have when the run ends (at most ${grant.maxFiles} files and ${grant.maxChangedLines} changed lines). ${NOT_YET}`,
      isError: false,
    };
  },
};
