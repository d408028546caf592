// Rows an event test needs: a GitHub repository with its own hook secret, a GitHub App
// connection with its webhook secret, and jobs that request triggers. Rows only, written
// directly (sync and approval are tested where they live).
import { randomUUID } from "node:crypto";
import { encryptField, type Keyring } from "@secondshift/crypto";
import type { Db, JobStatus, Prisma } from "@secondshift/db";
import type { RequestedTriggers } from "@secondshift/vocabulary";

export async function seedWorkspaceRow(db: Db, options: { eventRunsPerHour?: number } = {}) {
  const ws = await db.workspace.create({
    data: {
      slug: `ev-${randomUUID().slice(0, 8)}`,
      name: "Events",
      ...(options.eventRunsPerHour !== undefined
        ? { eventRunsPerHour: options.eventRunsPerHour }
        : {}),
    },
  });
  return ws.id;
}

/** A GitHub App connection whose deliveries are signed with `secret`. */
export async function seedAppConnection(
  db: Db,
  keyring: Keyring,
  input: {
    workspaceId: string;
    secret: string;
    appId: number;
    installationId: number;
    appSlug?: string;
  },
): Promise<string> {
  const id = randomUUID();
  await db.connection.create({
    data: {
      id,
      workspaceId: input.workspaceId,
      kind: "GITHUB",
      authType: "GITHUB_APP",
      label: `app-${id.slice(0, 8)}`,
      endpoint: "https://api.github.com",
      settings: {
        appId: String(input.appId),
        installationId: String(input.installationId),
        ...(input.appSlug ? { appSlug: input.appSlug } : {}),
      },
      webhookSecretCiphertext: await encryptField(keyring, input.secret, {
        workspaceId: input.workspaceId,
        table: "Connection",
        rowId: id,
        field: "webhookSecretCiphertext",
      }),
    },
  });
  return id;
}

/** A GitHub token connection (a repository fetched through it can have events). */
export async function seedTokenConnection(db: Db, workspaceId: string): Promise<string> {
  const row = await db.connection.create({
    data: {
      workspaceId,
      kind: "GITHUB",
      authType: "BEARER",
      label: `gh-${randomUUID().slice(0, 8)}`,
      endpoint: "https://api.github.com",
    },
  });
  return row.id;
}

/** A repository bound to `connectionId`, with its own hook secret when `secret` is given. */
export async function seedGitHubRepository(
  db: Db,
  keyring: Keyring,
  input: { workspaceId: string; fullName: string; connectionId: string | null; secret?: string },
): Promise<string> {
  const id = randomUUID();
  await db.repository.create({
    data: {
      id,
      workspaceId: input.workspaceId,
      fullName: input.fullName,
      cloneUrl: `https://github.com/${input.fullName}-${id.slice(0, 8)}.git`,
      connectionId: input.connectionId,
      webhookSecretCiphertext:
        input.secret === undefined
          ? null
          : await encryptField(keyring, input.secret, {
              workspaceId: input.workspaceId,
              table: "Repository",
              rowId: id,
              field: "webhookSecretCiphertext",
            }),
    },
  });
  return id;
}

/** A job of the repository with the given (approved, stored) triggers. */
export async function seedTriggerJob(
  db: Db,
  input: {
    workspaceId: string;
    repositoryId: string;
    key: string;
    triggers: RequestedTriggers;
    status?: JobStatus;
    enabled?: boolean;
  },
): Promise<string> {
  const row = await db.job.create({
    data: {
      workspaceId: input.workspaceId,
      repositoryId: input.repositoryId,
      key: input.key,
      name: `Job ${input.key}`,
      prompt: "Review it.",
      tokenBudget: 10_000,
      timeoutSeconds: 60,
      requestedTools: [],
      requestedTriggers: input.triggers as Prisma.InputJsonObject,
      requestHash: "h",
      status: input.status ?? "APPROVED",
      enabled: input.enabled ?? true,
      configCommit: "0".repeat(40),
    },
  });
  return row.id;
}
