// Owner: add a repository, optionally read through one of this workspace's connections. The
// push webhook secret is made here, encrypted bound to the row (P06) and returned once; the
// first sync is queued at once.
import { randomUUID } from "node:crypto";
import { encryptField, mintToken } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";
import { servesGit } from "@secondshift/vocabulary";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";
import { checkDestination, parseServiceUrl } from "../urls.ts";

export interface AddRepositoryInput {
  cloneUrl: string;
  defaultBranch?: string;
  connectionId?: string | null;
}

export interface AddedRepository {
  id: string;
  fullName: string;
  /** Path of the push webhook on the web app (the API prefixes the public URL). */
  pushPath: string;
  /** Shown once: the repository host signs pushes with it. */
  pushSecret: string;
}

/** `owner/name` from the clone URL's path. */
function fullNameOf(url: URL): string {
  const name = url.pathname
    .replace(/^\/+/, "")
    .replace(/\.git$/, "")
    .replace(/\/+$/, "");
  if (!/^[\w.-]+(\/[\w.-]+)+$/.test(name)) {
    throw new AppError(
      "BAD_REQUEST",
      "The clone URL must name a repository, such as https://github.com/acme/app.git.",
      { reason: "CLONE_URL_INVALID" },
    );
  }
  return name;
}

export async function addRepository(
  ctx: ActorContext,
  input: AddRepositoryInput,
): Promise<AddedRepository> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const services = requireService(ctx, "services");
  const { db, workspaceId, actor } = ctx;
  const url = parseServiceUrl(input.cloneUrl, "The clone URL");
  const fullName = fullNameOf(url);
  await checkDestination(ctx, url, "The clone URL", "git");
  if (input.connectionId) {
    const connection = await db.connection.findFirst({
      where: { id: input.connectionId, workspaceId, deletedAt: null },
      select: { id: true, kind: true },
    });
    if (!connection) throw notFound("Connection");
    if (!servesGit(connection.kind)) {
      throw new AppError(
        "BAD_REQUEST",
        "Only a GitHub connection can fetch a repository: choose one, or none for a public repository.",
        { reason: "CONNECTION_CANNOT_FETCH" },
      );
    }
  }
  const taken = await db.repository.findFirst({
    where: { workspaceId, cloneUrl: url.toString() },
    select: { id: true },
  });
  if (taken)
    throw new AppError("CONFLICT", "This repository is already added.", {
      reason: "REPOSITORY_EXISTS",
    });
  const id = randomUUID();
  const pushSecret = mintToken("webhook").token;
  const webhookSecretCiphertext = await encryptField(keyring, pushSecret, {
    workspaceId,
    table: "Repository",
    rowId: id,
    field: "webhookSecretCiphertext",
  });
  await db.$transaction(async (tx) => {
    await tx.repository.create({
      data: {
        id,
        workspaceId,
        fullName,
        cloneUrl: url.toString(),
        defaultBranch: input.defaultBranch ?? "main",
        connectionId: input.connectionId ?? null,
        webhookSecretCiphertext,
        syncRequestedAt: new Date(),
      },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "repository.added",
      targetType: "Repository",
      targetId: id,
      targetLabel: fullName,
    });
  });
  await services.requestSync({ workspaceId, repositoryId: id });
  return { id, fullName, pushPath: `/webhooks/repositories/${id}/push`, pushSecret };
}
