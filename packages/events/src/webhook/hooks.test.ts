import { randomBytes, randomUUID } from "node:crypto";
import { createKeyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import type { RequestedTriggers } from "@secondshift/vocabulary";
import { createReplayGuard } from "@secondshift/webhooks";
import { describe, expect } from "vitest";
import {
  seedAppConnection,
  seedGitHubRepository,
  seedTokenConnection,
  seedTriggerJob,
  seedWorkspaceRow,
} from "../testing/fixtures.ts";
import {
  issueCommentPayload,
  issuesPayload,
  pullRequestPayload,
  signedDelivery,
} from "../testing/payloads.ts";
import type { EventWebhookDeps } from "./deps.ts";
import { handleGitHubDelivery, type DeliveryTarget } from "./handle.ts";

const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const SECRET = `whsec_${randomBytes(12).toString("hex")}`;
const sha = (c: string) => c.repeat(40);

const PR: RequestedTriggers = { pull_request: { actions: ["opened", "synchronize"], bots: false } };

async function setup(db: Db, options: { eventRunsPerHour?: number } = {}) {
  const workspaceId = await seedWorkspaceRow(db, options);
  const connectionId = await seedTokenConnection(db, workspaceId);
  const fullName = `acme/app-${randomUUID().slice(0, 6)}`;
  const repositoryId = await seedGitHubRepository(db, keyring, {
    workspaceId,
    fullName,
    connectionId,
    secret: SECRET,
  });
  const synced: unknown[] = [];
  const enqueued: Array<{ runId: string; workspaceId: string }> = [];
  const deps: EventWebhookDeps = {
    keyring,
    replayGuard: createReplayGuard(db, { windowSeconds: 600 }),
    triggerSync: (t) => Promise.resolve(void synced.push(t)),
    enqueueRun: (r) => Promise.resolve(void enqueued.push(r)),
  };
  const send = async (
    event: string,
    payload: unknown,
    target: DeliveryTarget = { repositoryId },
    secret = SECRET,
  ) => {
    const { headers, rawBody } = await signedDelivery(secret, event, payload);
    return handleGitHubDelivery(db, deps, { ...target, headers, rawBody });
  };
  const job = (
    key: string,
    triggers: RequestedTriggers,
    extra: { status?: "NEEDS_APPROVAL"; enabled?: boolean } = {},
  ) => seedTriggerJob(db, { workspaceId, repositoryId, key, triggers, ...extra });
  const runs = () => db.run.findMany({ where: { workspaceId }, orderBy: { queuedAt: "asc" } });
  const events = () =>
    db.triggerEvent.findMany({ where: { workspaceId }, orderBy: { receivedAt: "asc" } });
  return { workspaceId, repositoryId, fullName, deps, synced, enqueued, send, job, runs, events };
}

describe("event intake", () => {
  test("[E04] each trigger queues exactly one run on the right commit", async ({ db }) => {
    const s = await setup(db);
    const reviewer = await s.job("review", PR);
    const triage = await s.job("triage", {
      issue: { actions: ["opened", "labeled"], labels: ["bug"], bots: false },
    });
    const command = await s.job("fix", { comment_command: { bots: false } });
    const repository = s.fullName;

    const pr = await s.send(
      "pull_request",
      pullRequestPayload("opened", { repository, headSha: sha("a"), number: 5 }),
    );
    expect(pr).toEqual({ status: 202, message: "Queued 1 run(s); dropped 0." });
    const opened = await s.send(
      "issues",
      issuesPayload("opened", { repository, number: 6, labels: ["bug"] }),
    );
    expect(opened.message).toBe("Queued 1 run(s); dropped 0.");
    const labeled = await s.send(
      "issues",
      issuesPayload("labeled", { repository, number: 7, labels: ["bug"], label: "bug" }),
    );
    expect(labeled.message).toBe("Queued 1 run(s); dropped 0.");
    const comment = await s.send(
      "issue_comment",
      issueCommentPayload({
        repository,
        number: 5,
        onPullRequest: true,
        body: "/secondshift fix the flaky test\nthanks",
      }),
    );
    expect(comment.message).toBe("Queued 1 run(s); dropped 0.");
    // Not a command for any job: nothing.
    expect(
      (
        await s.send(
          "issue_comment",
          issueCommentPayload({ repository, body: "/secondshift nope" }),
        )
      ).message,
    ).toContain("Queued 0");

    const runs = await s.runs();
    expect(runs.map((r) => [r.jobId, r.trigger, r.status, r.commitSha])).toEqual([
      [reviewer, "EVENT", "QUEUED", sha("a")],
      [triage, "EVENT", "QUEUED", null],
      [triage, "EVENT", "QUEUED", null],
      [command, "EVENT", "QUEUED", null],
    ]);
    expect(s.enqueued.map((e) => e.runId)).toEqual(runs.map((r) => r.id));
    const events = await s.events();
    expect(
      events.map((e) => [e.kind, e.action, e.subjectType, e.subjectNumber, e.outcome, e.runId]),
    ).toEqual([
      ["pull_request", "opened", "pull_request", 5, "queued", runs[0]!.id],
      ["issue", "opened", "issue", 6, "queued", runs[1]!.id],
      ["issue", "labeled", "issue", 7, "queued", runs[2]!.id],
      ["comment_command", "created", "pull_request", 5, "queued", runs[3]!.id],
    ]);
    expect(events[0]).toMatchObject({
      headSha: sha("a"),
      headRef: "changes",
      baseRef: "master",
      actorLogin: "Codertocat",
    });
    expect(events[2]).toMatchObject({ label: "bug", labels: ["bug"] });
    expect(events[3]).toMatchObject({
      commandText: "the flaky test",
      commentBody: expect.stringContaining("/secondshift fix") as string,
    });
    const audit = await db.auditEvent.findMany({
      where: { workspaceId: s.workspaceId, action: "event.run_queued" },
    });
    expect(audit).toHaveLength(4);
    expect(audit[0]).toMatchObject({ actorType: "SYSTEM", actorId: "events", targetType: "Run" });
    expect(s.synced).toEqual([]);
  });

  test("[E04] a replayed delivery, and a redelivery the replay guard no longer knows, start nothing", async ({
    db,
  }) => {
    const s = await setup(db);
    await s.job("review", PR);
    const payload = pullRequestPayload("opened", { repository: s.fullName, headSha: sha("b") });
    const { headers, rawBody } = await signedDelivery(SECRET, "pull_request", payload);
    const first = await handleGitHubDelivery(db, s.deps, {
      repositoryId: s.repositoryId,
      headers,
      rawBody,
    });
    expect(first.message).toContain("Queued 1");
    const replay = await handleGitHubDelivery(db, s.deps, {
      repositoryId: s.repositoryId,
      headers,
      rawBody,
    });
    expect(replay.status).toBe(409);
    // Same event, other bytes (so another signature): the durable per-job dedupe holds.
    const again = await s.send("pull_request", { ...payload, extra: 1 });
    expect(again).toEqual({
      status: 202,
      message: "Queued 0 run(s); dropped 0; 1 already received.",
    });
    expect(await s.runs()).toHaveLength(1);
    expect(await s.events()).toHaveLength(1);
  });

  test("[E04] stale and future-dated deliveries start nothing (422)", async ({ db }) => {
    const s = await setup(db);
    await s.job("review", PR);
    const old = await s.send(
      "pull_request",
      pullRequestPayload("opened", {
        repository: s.fullName,
        headSha: sha("c"),
        at: new Date(Date.now() - 21 * 60_000),
      }),
    );
    expect(old.status).toBe(422);
    expect(old.message).toContain("stale");
    const future = await s.send(
      "pull_request",
      pullRequestPayload("opened", {
        repository: s.fullName,
        headSha: sha("c"),
        at: new Date(Date.now() + 6 * 60_000),
      }),
    );
    expect(future.status).toBe(422);
    expect(await s.runs()).toHaveLength(0);
    expect(await s.events()).toHaveLength(0);
  });

  test("[E04] forged-signature and other-repository deliveries start nothing", async ({ db }) => {
    const s = await setup(db);
    await s.job("review", PR);
    const payload = pullRequestPayload("opened", { repository: s.fullName, headSha: sha("d") });
    expect((await s.send("pull_request", payload, undefined, "whsec_attacker_guess")).status).toBe(
      401,
    );
    const other = pullRequestPayload("opened", { repository: "evil/app", headSha: sha("d") });
    expect(await s.send("pull_request", other)).toEqual({
      status: 403,
      message: expect.stringContaining("another repository") as string,
    });
    const unsigned = await handleGitHubDelivery(db, s.deps, {
      repositoryId: s.repositoryId,
      headers: { "x-github-event": "pull_request", "x-github-delivery": "d1" },
      rawBody: Buffer.from(JSON.stringify(payload)),
    });
    expect(unsigned.status).toBe(401);
    expect(await s.runs()).toHaveLength(0);
  });

  test("[E04] ten synchronize deliveries of one pull request leave one QUEUED run for the newest head, the others SUPERSEDED", async ({
    db,
  }) => {
    const s = await setup(db);
    await s.job("review", PR);
    const heads = Array.from({ length: 10 }, (_, i) => i.toString(16).repeat(40));
    for (const headSha of heads)
      expect(
        (
          await s.send(
            "pull_request",
            pullRequestPayload("synchronize", { repository: s.fullName, headSha, number: 9 }),
          )
        ).status,
      ).toBe(202);
    const runs = await s.runs();
    expect(runs.filter((r) => r.status === "QUEUED").map((r) => r.commitSha)).toEqual([heads[9]]);
    const superseded = runs.filter((r) => r.status === "SUPERSEDED");
    expect(superseded).toHaveLength(9);
    expect(superseded[0]!.error).toMatch(
      /^Superseded by a newer event for pull request #9 \(commit [0-9a-f]{7}\)\.$/,
    );
    const outcomes = (await s.events()).map((e) => e.outcome);
    expect(outcomes).toEqual([...Array<string>(9).fill("superseded"), "queued"]);
    expect(
      await db.auditEvent.count({
        where: { workspaceId: s.workspaceId, action: "event.superseded" },
      }),
    ).toBe(9);
  });

  test("[E04] deliveries out of order: an older push arriving after a newer one's run starts nothing", async ({
    db,
  }) => {
    const s = await setup(db);
    await s.job("review", PR);
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000);
    const send = (headSha: string, secondsAgo: number) =>
      s.send(
        "pull_request",
        pullRequestPayload("synchronize", {
          repository: s.fullName,
          headSha,
          number: 4,
          at: at(secondsAgo),
        }),
      );
    expect((await send(sha("b"), 10)).status).toBe(202);
    const late = await send(sha("a"), 30);
    expect(late).toEqual({
      status: 202,
      message: expect.stringContaining("1 older than an event that already has a run") as string,
    });
    const runs = await s.runs();
    expect(runs.map((r) => [r.status, r.commitSha])).toEqual([["QUEUED", sha("b")]]);
    const events = await s.events();
    expect(events.map((e) => [e.outcome, e.headSha, e.runId])).toEqual([
      ["queued", sha("b"), runs[0]!.id],
      ["superseded", sha("a"), null],
    ]);
    expect(events[1]!.detail).toContain(runs[0]!.id);
  });

  test("[E04] a burst of pushes past the hourly limit still runs the newest head (superseded runs spend nothing)", async ({
    db,
  }) => {
    const s = await setup(db, { eventRunsPerHour: 3 });
    await s.job("review", PR);
    const heads = Array.from({ length: 8 }, (_, i) => i.toString(16).repeat(40));
    for (const headSha of heads) {
      const payload = pullRequestPayload("synchronize", {
        repository: s.fullName,
        headSha,
        number: 2,
      });
      expect((await s.send("pull_request", payload)).status).toBe(202);
    }
    const runs = await s.runs();
    expect(runs.filter((r) => r.status === "QUEUED").map((r) => r.commitSha)).toEqual([heads[7]]);
    expect((await s.events()).filter((e) => e.outcome === "dropped")).toHaveLength(0);
  });

  test("[E04] a 50-event burst with eventRunsPerHour 20 queues 20 and records 30 rate_limit drops", async ({
    db,
  }) => {
    const s = await setup(db, { eventRunsPerHour: 20 });
    await s.job("triage", { issue: { actions: ["opened"], labels: [], bots: false } });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.send("issues", issuesPayload("opened", { repository: s.fullName, number: 100 + i })),
      ),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(await db.run.count({ where: { workspaceId: s.workspaceId, status: "QUEUED" } })).toBe(
      20,
    );
    const events = await s.events();
    expect(events.filter((e) => e.outcome === "queued")).toHaveLength(20);
    expect(
      events.filter((e) => e.outcome === "dropped" && e.dropReason === "rate_limit"),
    ).toHaveLength(30);
    expect(answers.filter((a) => a.message.includes("triage (rate_limit)"))).toHaveLength(30);
    expect(
      await db.auditEvent.count({
        where: { workspaceId: s.workspaceId, action: "event.dropped", outcome: "rate_limit" },
      }),
    ).toBe(30);
  });

  test("[E01] a pull request delivery runs only what the default branch's approved configuration declares, and never syncs", async ({
    db,
  }) => {
    const s = await setup(db);
    // The default branch's config: this job runs on issues only, and this one is not approved.
    await s.job("triage", { issue: { actions: ["opened"], labels: [], bots: false } });
    await s.job("pending", PR, { status: "NEEDS_APPROVAL" });
    await s.job("paused", PR, { enabled: false });
    // The pull request's own head edits .secondshift.yaml to add a pull_request trigger: the
    // payload cannot say so, and nothing reads the head's configuration.
    const answer = await s.send(
      "pull_request",
      pullRequestPayload("opened", { repository: s.fullName, headSha: sha("e") }),
    );
    expect(answer.message).toBe(
      "Queued 0 run(s); dropped 2: paused (job_not_approved), pending (job_not_approved).",
    );
    expect(await s.runs()).toHaveLength(0);
    expect(s.synced).toEqual([]);
    const dropped = await s.events();
    expect(dropped.map((e) => [e.dropReason, e.detail])).toEqual([
      ["job_not_approved", "The job is paused."],
      ["job_not_approved", "The job is status NEEDS_APPROVAL."],
    ]);
  });

  test("[E03] other bots count only where the trigger takes bots", async ({ db }) => {
    const s = await setup(db);
    await s.job("review", PR);
    await s.job("deps", { pull_request: { actions: ["opened"], bots: true } });
    const answer = await s.send(
      "pull_request",
      pullRequestPayload("opened", {
        repository: s.fullName,
        headSha: sha("f"),
        sender: { login: "dependabot[bot]", type: "Bot" },
      }),
    );
    expect(answer.message).toBe("Queued 1 run(s); dropped 1: review (bot).");
  });

  test("pushes still sync; ping answers pong; other events and wrong shapes are ignored, not errors", async ({
    db,
  }) => {
    const s = await setup(db);
    await s.job("review", PR);
    expect(await s.send("push", { ref: "refs/heads/main" })).toEqual({
      status: 202,
      message: "Sync started.",
    });
    expect((await s.send("ping", { zen: "x" })).message).toBe("pong");
    expect(
      (
        await s.send(
          "pull_request",
          pullRequestPayload("closed" as "opened", { repository: s.fullName, headSha: sha("1") }),
        )
      ).status,
    ).toBe(202);
    const bad = pullRequestPayload("opened", { repository: s.fullName, headSha: sha("2") });
    (bad.pull_request as Record<string, unknown>).head = "x";
    const ignored = await s.send("pull_request", bad);
    expect(ignored).toEqual({
      status: 202,
      message: expect.stringContaining("Ignored: pull_request.head.sha") as string,
    });
    expect((await s.send("star", { repository: { full_name: s.fullName } })).message).toContain(
      "Ignored",
    );
    expect(s.synced).toHaveLength(1);
    expect(await s.runs()).toHaveLength(0);
  });
});

describe("GitHub App hook", () => {
  async function appSetup(db: Db, installationId: number) {
    const s = await setup(db);
    const secret = `whsec_app_${randomBytes(8).toString("hex")}`;
    const appConnectionId = await seedAppConnection(db, keyring, {
      workspaceId: s.workspaceId,
      secret,
      appId: 123,
      installationId,
      appSlug: "secondshift-acme",
    });
    const fullName = `acme/bound-${randomUUID().slice(0, 6)}`;
    const repositoryId = await seedGitHubRepository(db, keyring, {
      workspaceId: s.workspaceId,
      fullName,
      connectionId: appConnectionId,
    });
    const job = (key: string, triggers: RequestedTriggers) =>
      seedTriggerJob(db, { workspaceId: s.workspaceId, repositoryId, key, triggers });
    const sendApp = (
      event: string,
      payload: unknown,
      connectionId = appConnectionId,
      key = secret,
    ) => s.send(event, payload, { connectionId }, key);
    return { ...s, secret, appConnectionId, fullName, repositoryId, installationId, job, sendApp };
  }

  test("a delivery routed by installation and repository queues the bound repository's job; pushes sync; ping pongs", async ({
    db,
  }) => {
    const a = await appSetup(db, 5001);
    await a.job("review", PR);
    expect((await a.sendApp("ping", {})).message).toBe("pong");
    const answer = await a.sendApp(
      "pull_request",
      pullRequestPayload("opened", {
        repository: a.fullName.toUpperCase(),
        installationId: 5001,
        headSha: sha("3"),
      }),
    );
    expect(answer.message).toBe("Queued 1 run(s); dropped 0.");
    const run = await db.run.findFirstOrThrow({ where: { workspaceId: a.workspaceId } });
    expect(run.commitSha).toBe(sha("3"));
    const push = await a.sendApp("push", {
      ref: "refs/heads/main",
      repository: { full_name: a.fullName },
      installation: { id: 5001 },
    });
    expect(push.message).toBe("Sync started.");
    expect(a.synced).toEqual([{ workspaceId: a.workspaceId, repositoryId: a.repositoryId }]);
  });

  test("[E04] foreign-workspace deliveries start nothing: another installation, an unbound repository, another connection's secret", async ({
    db,
  }) => {
    const a = await appSetup(db, 6001);
    const b = await appSetup(db, 6002);
    await a.job("review", PR);
    await b.job("review", PR);
    // B's installation to A's hook (A's secret: GitHub would never sign it so, an attacker with A's secret could).
    const otherInstallation = await a.sendApp(
      "pull_request",
      pullRequestPayload("opened", {
        repository: a.fullName,
        installationId: 6002,
        headSha: sha("4"),
      }),
    );
    expect(otherInstallation.status).toBe(403);
    // A's hook, A's installation, naming B's repository (not bound to A's connection).
    const unbound = await a.sendApp(
      "pull_request",
      pullRequestPayload("opened", {
        repository: b.fullName,
        installationId: 6001,
        headSha: sha("4"),
      }),
    );
    expect(unbound.status).toBe(404);
    // Signed with B's secret, sent to A's hook.
    const forged = await a.sendApp(
      "pull_request",
      pullRequestPayload("opened", {
        repository: a.fullName,
        installationId: 6001,
        headSha: sha("4"),
      }),
      a.appConnectionId,
      b.secret,
    );
    expect(forged.status).toBe(401);
    // A's per-repository secret does not sign for the App hook either.
    expect((await a.sendApp("ping", {}, a.appConnectionId, SECRET)).status).toBe(401);
    expect((await a.sendApp("ping", {}, randomUUID())).status).toBe(404);
    expect(
      await db.run.count({ where: { workspaceId: { in: [a.workspaceId, b.workspaceId] } } }),
    ).toBe(0);
  });

  test("[E03] our own App's comment starts nothing, even on a trigger that takes bots", async ({
    db,
  }) => {
    const a = await appSetup(db, 7001);
    await a.job("fix", { comment_command: { bots: true } });
    const viaApp = await a.sendApp(
      "issue_comment",
      issueCommentPayload({
        repository: a.fullName,
        installationId: 7001,
        body: "/secondshift fix",
        sender: { login: "some-name[bot]", type: "Bot" },
        viaAppId: 123,
      }),
    );
    expect(viaApp.message).toBe("Queued 0 run(s); dropped 1: fix (own_app).");
    const bySlug = await a.sendApp(
      "issue_comment",
      issueCommentPayload({
        repository: a.fullName,
        installationId: 7001,
        body: "/secondshift fix",
        sender: { login: "secondshift-acme[bot]", type: "Bot" },
      }),
    );
    expect(bySlug.message).toBe("Queued 0 run(s); dropped 1: fix (own_app).");
    expect(await db.run.count({ where: { workspaceId: a.workspaceId } })).toBe(0);
    const rows = await db.triggerEvent.findMany({ where: { workspaceId: a.workspaceId } });
    expect(rows.map((r) => [r.outcome, r.dropReason])).toEqual([
      ["dropped", "own_app"],
      ["dropped", "own_app"],
    ]);
    // Another bot's command counts here (bots: true).
    const other = await a.sendApp(
      "issue_comment",
      issueCommentPayload({
        repository: a.fullName,
        installationId: 7001,
        body: "/secondshift fix",
        sender: { login: "renovate[bot]", type: "Bot" },
        viaAppId: 2740,
      }),
    );
    expect(other.message).toBe("Queued 1 run(s); dropped 0.");
  });
});
