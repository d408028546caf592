import { createRun, seedJob, seedTenant } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db, Prisma } from "@secondshift/db";
import {
  OUTSIDER_HOLD_REASON,
  SUPERSEDED_HOLD_REASON,
  type GrantedOutputs,
} from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { checkRunOutputs } from "./check-run.ts";
import { eventHoldsOfRun } from "./event-holds.ts";

const known = { mask: (text: string) => text };
const auto: GrantedOutputs = {
  comment: { max: 2, target: "triggering", mode: "auto" },
  pull_request: { draft: true, labels: [], maxFiles: 5, maxChangedLines: 100, mode: "auto" },
};

const PULL_REQUEST = {
  title: "Fixups",
  body: "",
  draft: true,
  labels: [],
  baseSha: "a".repeat(40),
  baseBranch: "main",
  headBranch: "secondshift/reviewer-r1",
  files: [
    {
      path: "README.md",
      status: "modified",
      mode: "100644",
      content: "hi\n",
      additions: 1,
      deletions: 0,
      patch: "+hi",
    },
  ],
};

interface EventRun {
  id: string;
  workspaceId: string;
}

const test = dbTest.extend("eventRun", { scope: "file" }, async ({ db }) => {
  const tenant = await seedTenant(db);
  const jobId = await seedJob(db, tenant);
  let n = 0;
  return async (event: {
    permission: string | null;
    headSha?: string;
    at?: Date;
    occurredAt?: Date;
    /** The pull request; each test that compares heads takes its own. */
    number?: number;
  }) => {
    const id = await createRun(db, tenant.workspaceId, jobId);
    await db.run.update({ where: { id }, data: { trigger: "EVENT" } });
    n += 1;
    await db.triggerEvent.create({
      data: {
        workspaceId: tenant.workspaceId,
        jobId,
        runId: id,
        deliveryId: `d-${n}`,
        kind: "pull_request",
        action: "synchronize",
        subjectType: "pull_request",
        subjectNumber: event.number ?? 9,
        subjectTitle: "Speed up",
        subjectUrl: "https://github.com/acme/app/pull/9",
        subjectAuthor: "wendy",
        actorLogin: "wendy",
        actorPermission: event.permission,
        headSha: event.headSha ?? String(n).repeat(40).slice(0, 40),
        dedupeKey: `pr:${event.number ?? 9}:${n}`,
        outcome: "queued",
        receivedAt: event.at ?? new Date(),
        occurredAt: event.occurredAt ?? event.at ?? new Date(),
      },
    });
    const propose = (seq: number, kind: string, payload: Record<string, unknown>) =>
      db.runOutput.create({
        data: {
          workspaceId: tenant.workspaceId,
          runId: id,
          jobId,
          seq,
          kind,
          payload: payload as Prisma.InputJsonValue,
        },
      });
    await propose(0, "comment", { number: 9, body: "Reviewed." });
    await propose(1, "pull_request", PULL_REQUEST);
    return { id, workspaceId: tenant.workspaceId } satisfies EventRun;
  };
});

async function check(db: Db, run: EventRun) {
  const holds = await eventHoldsOfRun(db, run);
  await checkRunOutputs(
    { db, known },
    { ...run, succeeded: true, status: "SUCCEEDED", holds },
    auto,
  );
  return db.runOutput.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
}

describe("event holds", () => {
  test("[E03] every output of an outsider's event run is held for approval, whatever the mode", async ({
    db,
    eventRun,
  }) => {
    for (const permission of ["read", "none", null]) {
      const outputs = await check(db, await eventRun({ permission }));
      expect(outputs.map((o) => [o.kind, o.state, o.reason])).toEqual([
        ["comment", "HELD", OUTSIDER_HOLD_REASON],
        ["pull_request", "HELD", OUTSIDER_HOLD_REASON],
      ]);
    }
    const audit = await db.auditEvent.count({ where: { action: "output.held" } });
    expect(audit).toBe(6);
  });

  test("[E04] a newer head while the run went holds its pull request as superseded; its comment goes", async ({
    db,
    eventRun,
  }) => {
    const older = await eventRun({ permission: "write", at: new Date(Date.now() - 60_000) });
    const newer = await eventRun({ permission: "write" });
    const olderOutputs = await check(db, older);
    expect(olderOutputs.map((o) => [o.kind, o.state, o.reason])).toEqual([
      ["comment", "READY", null],
      ["pull_request", "HELD", SUPERSEDED_HOLD_REASON],
    ]);
    // The newest head's run applies as the owner chose (auto).
    expect((await check(db, newer)).map((o) => o.state)).toEqual(["READY", "READY"]);
  });

  test("[E04] newer is the pull request's own time, not the delivery order", async ({
    db,
    eventRun,
  }) => {
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    const newest = await eventRun({
      permission: "write",
      at: minutesAgo(2),
      occurredAt: minutesAgo(2),
      number: 12,
    });
    // Delivered later, but about an older push: it does not make the newest head superseded.
    await eventRun({
      permission: "write",
      at: minutesAgo(1),
      occurredAt: minutesAgo(5),
      number: 12,
    });
    expect((await check(db, newest)).map((o) => o.state)).toEqual(["READY", "READY"]);
  });

  test("a run no event started has no event holds", async ({ db }) => {
    const tenant = await seedTenant(db);
    const run = { id: await createRun(db, tenant.workspaceId, await seedJob(db, tenant)) };
    expect(await eventHoldsOfRun(db, { ...run, workspaceId: tenant.workspaceId })).toEqual({
      all: null,
      pullRequest: null,
    });
  });
});
