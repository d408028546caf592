// C01 through the owner API: the repository's .secondshift.yaml only requests access. Its
// request reaches the database through the sync's own parse and write (parseRepoConfig,
// upsertJobsFromConfig); approving is the owner's alone over the real tRPC HTTP API (admin and
// viewer are refused, nothing is granted); a later commit that asks for more puts the job back
// to waiting and never widens the grant; a file that names a connection, a credential, an
// endpoint or sandbox settings is refused whole and changes nothing.
import { ACCESS_ONLY_MESSAGE, parseRepoConfig } from "@secondshift/config";
import { recordingServices, testKeyring } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { describe, expect } from "vitest";
import { startTestApi } from "../../testing/index.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();
const limits = { maxTimeoutMinutes: 60, maxTokenBudget: 1_000_000, defaultTimeoutMinutes: 10 };

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring, services: recordingServices() });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("admin", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.admin))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer));

/** A committed .secondshift.yaml whose job asks the "planted" MCP connection for these tools. */
const config = (key: string, tools: string[], inGroup: string[] = []) =>
  [
    "version: 1",
    "jobs:",
    `  ${key}:`,
    `    name: Job ${key}`,
    "    prompt: Triage new issues",
    "    tools:",
    "      mcp:",
    "        - label: planted",
    "          required: true",
    `          tools: [${tools.join(", ")}]`,
    ...inGroup.map((line) => `          ${line}`),
    "",
  ].join("\n");

/** What a sync of that commit writes: the file parsed, then the jobs upserted. */
async function sync(db: Db, tenant: HttpTenant, text: string, commit: string) {
  const parsed = parseRepoConfig(text, { limits });
  if (!parsed.ok) return { ok: false as const, errors: parsed.errors.map((e) => e.message) };
  const { jobs } = await upsertJobsFromConfig(db, {
    workspaceId: tenant.workspaceId,
    repositoryId: tenant.repositoryId,
    commit,
    jobs: parsed.config.jobs.map(({ prompt, promptFile: _file, ...job }) => ({
      ...job,
      prompt: prompt ?? "",
    })),
  });
  return { ok: true as const, jobId: jobs[0]!.jobId };
}

const reasonOf = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: { data?: { reason?: string | null; code?: string } }) =>
      `${e.data?.code}/${e.data?.reason ?? "-"}`,
  );

async function plantedConnection(db: Db, tenant: HttpTenant) {
  return db.connection.findFirstOrThrow({
    where: { workspaceId: tenant.workspaceId, label: "planted" },
  });
}

async function grantedTools(db: Db, jobId: string) {
  const grants = await db.grant.findMany({
    where: { jobId, revokedAt: null },
    include: { tools: true },
  });
  return grants.flatMap((g) => g.tools.map((t) => t.toolName)).sort();
}

describe("approval is the owner's", () => {
  test("[C01][C02] a job the repository requests waits for the owner: admin and viewer cannot approve it through the API, and it cannot run", async ({
    db,
    acme,
    owner,
    admin,
    viewer,
  }) => {
    const synced = await sync(db, acme, config("triage", ["search"]), "c1");
    if (!synced.ok) throw new Error(synced.errors.join("; "));
    const { jobId } = synced;
    const connection = await plantedConnection(db, acme);
    const review = await owner.trpc.jobs.review.query({ workspaceId: acme.workspaceId, jobId });
    expect(review.job.status).toBe("NEEDS_APPROVAL");
    const approval = {
      workspaceId: acme.workspaceId,
      jobId,
      requestHash: review.job.requestHash,
      bindings: { "MCP:planted": connection.id },
    };

    for (const member of [admin, viewer])
      expect(await reasonOf(member.trpc.jobs.approve.mutate(approval))).toBe(
        "FORBIDDEN/ROLE_NOT_ALLOWED",
      );
    expect(
      await reasonOf(admin.trpc.jobs.runNow.mutate({ workspaceId: acme.workspaceId, jobId })),
    ).toBe("PRECONDITION_FAILED/JOB_NOT_APPROVED");
    expect(await db.grant.count({ where: { jobId } })).toBe(0);
    expect(
      (await viewer.trpc.jobs.get.query({ workspaceId: acme.workspaceId, jobId })).status,
    ).toBe("NEEDS_APPROVAL");

    await owner.trpc.jobs.approve.mutate(approval);
    expect(await grantedTools(db, jobId)).toEqual(["search"]);
    expect((await admin.trpc.jobs.get.query({ workspaceId: acme.workspaceId, jobId })).status).toBe(
      "APPROVED",
    );
    expect(
      await db.auditEvent.findMany({
        where: { workspaceId: acme.workspaceId, action: "job.approved", targetId: jobId },
        select: { actorId: true },
      }),
    ).toEqual([{ actorId: acme.ownerId }]);
  });

  test("[C01] a commit cannot widen an approved grant: asking for more puts the job back to waiting; naming a connection, credential, endpoint or sandbox is refused and changes nothing", async ({
    db,
    acme,
    owner,
    admin,
  }) => {
    // The owner allows both tools on the connection; the job is approved for search only.
    const connection = await plantedConnection(db, acme);
    await owner.trpc.connections.setAllowedTools.mutate({
      workspaceId: acme.workspaceId,
      connectionId: connection.id,
      tools: ["search", "write"],
    });
    const first = await sync(db, acme, config("widen", ["search"]), "c1");
    if (!first.ok) throw new Error(first.errors.join("; "));
    const { jobId } = first;
    const reviewed = await owner.trpc.jobs.review.query({ workspaceId: acme.workspaceId, jobId });
    await owner.trpc.jobs.approve.mutate({
      workspaceId: acme.workspaceId,
      jobId,
      requestHash: reviewed.job.requestHash,
      bindings: { "MCP:planted": connection.id },
    });
    expect(await grantedTools(db, jobId)).toEqual(["search"]);

    // A later commit asks for write too.
    expect(await sync(db, acme, config("widen", ["search", "write"]), "c2")).toMatchObject({
      ok: true,
      jobId,
    });
    const again = await owner.trpc.jobs.review.query({ workspaceId: acme.workspaceId, jobId });
    expect(again.job.status).toBe("NEEDS_APPROVAL");
    expect(again.job.requestHash).not.toBe(reviewed.job.requestHash);
    expect(await grantedTools(db, jobId)).not.toContain("write");
    expect(
      await reasonOf(admin.trpc.jobs.runNow.mutate({ workspaceId: acme.workspaceId, jobId })),
    ).toBe("PRECONDITION_FAILED/JOB_NOT_APPROVED");
    // The approval the owner gave for the old request does not carry over to the new one.
    expect(
      await reasonOf(
        owner.trpc.jobs.approve.mutate({
          workspaceId: acme.workspaceId,
          jobId,
          requestHash: reviewed.job.requestHash,
          bindings: { "MCP:planted": connection.id },
        }),
      ),
    ).toBe("CONFLICT/REQUEST_CHANGED");

    // A commit that tries to choose what only the owner chooses is refused whole.
    const before = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    for (const attempt of [
      config("widen", ["search", "write"], [`connectionId: ${connection.id}`]),
      config("widen", ["search", "write"], ["endpoint: https://evil.example/mcp"]),
      config("widen", ["search", "write"], ["credential: hunter2"]),
      config("widen", ["search", "write"], ["approved: true"]),
      config("widen", ["search", "write"]).replace(
        "    prompt:",
        "    sandbox:\n      network: true\n    prompt:",
      ),
    ]) {
      const refused = await sync(db, acme, attempt, "c3");
      expect(refused.ok, attempt).toBe(false);
      expect(refused.ok ? [] : refused.errors, attempt).toContainEqual(
        expect.stringContaining(ACCESS_ONLY_MESSAGE),
      );
    }
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toEqual(before);
    expect(await grantedTools(db, jobId)).toEqual(["search"]);
  });
});
