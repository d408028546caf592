// The run's gateway token (C15, P03): random, shown once to the agent loop, stored as a hash,
// expiring with the run's deadline and revoked when the run ends, whatever the cause.
import { mintToken } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";

export async function issueRunToken(
  db: Db,
  run: { id: string; workspaceId: string },
  deadline: Date,
): Promise<string> {
  const { token, hash } = mintToken("run");
  await db.runToken.create({
    data: { workspaceId: run.workspaceId, runId: run.id, tokenHash: hash, expiresAt: deadline },
  });
  return token;
}

export async function revokeRunTokens(
  db: Db,
  run: { id: string; workspaceId: string },
): Promise<void> {
  await db.runToken.updateMany({
    where: { runId: run.id, workspaceId: run.workspaceId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
