// Where an output goes: the job's own repository (owner/name) and the GitHub App connection it
// is fetched with — the same connection and key path repository fetches use (repo-sync's
// githubAppInstallation). What an owner must fix is returned as a reason, not thrown.
import type { Db } from "@secondshift/db";
import type { RepositoryConnection } from "@secondshift/repo-sync";
import type { ClaimedOutput } from "./claim.ts";

export interface OutputTarget {
  fullName: string;
  owner: string;
  repo: string;
  connection: RepositoryConnection;
}

export type TargetOrReason = { target: OutputTarget } | { reason: string; code: string };

const CONNECTION_FIELDS = {
  id: true,
  workspaceId: true,
  authType: true,
  endpoint: true,
  settings: true,
  credentialCiphertext: true,
  oauthAccessTokenCiphertext: true,
  deletedAt: true,
} as const;

export async function loadTarget(db: Db, output: ClaimedOutput): Promise<TargetOrReason> {
  const job = await db.job.findFirst({
    where: { id: output.jobId, workspaceId: output.workspaceId },
    select: {
      repository: { select: { fullName: true, connection: { select: CONNECTION_FIELDS } } },
    },
  });
  const repository = job?.repository;
  if (!repository)
    return { reason: "The job or its repository no longer exists.", code: "no_repository" };
  const [owner, repo] = repository.fullName.split("/");
  const connection = repository.connection;
  if (connection === null || connection.deletedAt !== null || connection.authType !== "GITHUB_APP")
    return {
      reason: `Outputs are written through the GitHub App connection of "${repository.fullName}", and it has none; ask the workspace owner to fetch the repository through a GitHub App connection, then propose the output again.`,
      code: "no_github_app",
    };
  if (!owner || !repo)
    return {
      reason: `"${repository.fullName}" is not an owner/name repository.`,
      code: "bad_repository",
    };
  return { target: { fullName: repository.fullName, owner, repo, connection } };
}
