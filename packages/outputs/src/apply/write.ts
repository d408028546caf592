// One attempt at writing a claimed output to GitHub: a token with only the permissions the
// kind needs, for the job's repository only, minted now (the run has ended) and revoked when
// the attempt is over, whatever its outcome (O03). The token is masked while it lives and
// never leaves this function: not in a reason, an error or a log line.
import type { Keyring } from "@secondshift/crypto";
import { isAppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { githubAppInstallation, type MintInstallationToken } from "@secondshift/repo-sync";
import { OUTPUT_PERMISSIONS, type OutputKind } from "@secondshift/vocabulary";
import type { ClaimedOutput } from "./claim.ts";
import { githubRefusal, githubWriter, type GithubObject, type OutboundFetch } from "./github.ts";
import { readComment, readIssue } from "./payload.ts";
import { transientFailure } from "./transient.ts";
import type { OutputTarget } from "./target.ts";

export interface WriteDeps {
  keyring: Keyring;
  mintToken: MintInstallationToken;
  fetch: OutboundFetch;
  userAgent: string;
  masker?: SecretMasker;
}

export type WriteOutcome = GithubObject | { reason: string; code: string };

/** GitHub's `since` is its own clock; an hour of slack covers any skew with ours. */
const CLOCK_SLACK_MS = 3_600_000;

export async function writeOutput(
  deps: WriteDeps,
  target: OutputTarget,
  output: ClaimedOutput,
): Promise<WriteOutcome> {
  const write = proposalWriter(output);
  if (write === null)
    return { reason: "The stored proposal is not a valid comment or issue.", code: "bad_payload" };
  const minted = await mint(deps, target, output.kind as OutputKind);
  if ("reason" in minted) return minted;
  const secrets = deps.masker?.scope();
  secrets?.add(minted.token);
  try {
    const writer = githubWriter(
      { apiBase: target.connection.endpoint, owner: target.owner, repo: target.repo },
      { fetch: deps.fetch, token: minted.token, userAgent: deps.userAgent },
    );
    return await write(writer, new Date(output.proposedAt.getTime() - CLOCK_SLACK_MS)).catch(
      (error: unknown) => refusedOrThrow(error, target, output, deps.masker),
    );
  } finally {
    await minted.revoke().catch(() => undefined);
    secrets?.close();
  }
}

type Writer = ReturnType<typeof githubWriter>;

function proposalWriter(output: ClaimedOutput) {
  if (output.kind === "comment") {
    const comment = readComment(output.payload);
    return comment && ((w: Writer, since: Date) => w.comment(output.id, comment, since));
  }
  const issue = readIssue(output.payload);
  return issue && ((w: Writer, since: Date) => w.issue(output.id, issue, since));
}

async function mint(deps: WriteDeps, target: OutputTarget, kind: OutputKind) {
  try {
    const installation = await githubAppInstallation(
      deps.keyring,
      target.connection,
      target.fullName,
      OUTPUT_PERMISSIONS[kind],
    );
    return await deps.mintToken(installation);
  } catch (error) {
    // The owner's to fix (installation, permissions, settings, a key that does not decrypt):
    // retrying will not help. Only a mint that did not reach GitHub is tried again.
    if (isAppError(error) && error.reason !== "INSTALLATION_TOKEN_FAILED")
      return { reason: error.message, code: "token_refused" };
    throw error;
  }
}

function refusedOrThrow(
  error: unknown,
  target: OutputTarget,
  output: ClaimedOutput,
  masker: SecretMasker | undefined,
): WriteOutcome {
  const refusal = githubRefusal(error);
  if (refusal === null) throw transientFailure(error, output.id);
  const what =
    output.kind === "comment"
      ? `the comment on #${readComment(output.payload)?.number ?? "?"}`
      : "the new issue";
  const detail = refusal.message === "" ? "" : `: ${refusal.message}`;
  const text = `GitHub refused ${what} in ${target.fullName} (HTTP ${refusal.status}${detail}). ${hint(refusal.status, target.fullName)}`;
  return { reason: masker ? masker.mask(text) : text, code: `github_${refusal.status}` };
}

function hint(status: number, fullName: string): string {
  if (status === 404 || status === 410)
    return `The issue or pull request does not exist there, issues are turned off, or the app cannot see ${fullName}; check it, then propose the output again.`;
  if (status === 401 || status === 403)
    return `The GitHub App may not write issues in ${fullName}; ask the workspace owner to grant it "Issues: Read and write".`;
  return "GitHub did not accept the content; change it and propose the output again.";
}
