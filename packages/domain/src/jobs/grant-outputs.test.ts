// [O02] The owner grants output kinds in the access review: only kinds the job requests, limits
// at most the requested ones, "hold" by default, and only through a GitHub App connection.
import { createVerify, generateKeyPairSync, randomUUID } from "node:crypto";
import { encryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { job, requestJob, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { approveJob } from "./decisions.ts";
import { readGrantedOutputs } from "../outputs/stored.ts";
import { NO_GITHUB_APP_REASON } from "./grant-outputs.ts";
import { getAccessReview } from "./review.ts";

const keyring = testKeyring();
const requested = {
  comment: { max: 3, target: "triggering" as const },
  issue: { max: 2, titlePrefix: "[deps] ", labels: ["dependencies"] },
  pull_request: { draft: true, labels: ["automated"], maxFiles: 5, maxChangedLines: 200 },
};

const failure = async (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: unknown) => (isAppError(e) ? `${e.code}:${e.reason ?? ""}` : String(e)),
  );

async function connectThroughApp(db: Db, tenant: Tenant): Promise<void> {
  const connection = await db.connection.create({
    data: {
      workspaceId: tenant.workspaceId,
      kind: "GITHUB",
      label: "app",
      endpoint: "https://api.github.com",
      authType: "GITHUB_APP",
    },
  });
  await db.repository.update({
    where: { id: tenant.repositoryId },
    data: { connectionId: connection.id },
  });
}

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  const noApp = await seedTenant(db, "noapp");
  await connectThroughApp(db, a);
  await connectThroughApp(db, b);
  return { a, b, noApp };
});

const as = (db: Db, tenant: Tenant, userId: string) => ({
  db,
  keyring,
  actor: { userId },
  workspaceId: tenant.workspaceId,
});

async function requesting(db: Db, tenant: Tenant, key: string) {
  const { jobId } = await requestJob(db, tenant, job(key, [], { outputs: requested }));
  const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
  return { jobId, requestHash: row.requestHash };
}

describe("approveJob: outputs", () => {
  test("[O02] stores exactly the listed kinds, hold by default, with the owner's lower limit", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "granted");
    const { grantId } = await approveJob(as(db, a, a.ownerId), {
      ...j,
      outputs: { comment: { max: 1 } },
    });
    const grant = await db.grant.findUniqueOrThrow({ where: { id: grantId } });
    expect(grant.outputs).toEqual({ comment: { max: 1, target: "triggering", mode: "hold" } });

    const again = await approveJob(as(db, a, a.ownerId), {
      ...j,
      outputs: { issue: { mode: "auto" } },
    });
    const second = await db.grant.findUniqueOrThrow({ where: { id: again.grantId } });
    expect(second.outputs).toEqual({ issue: { ...requested.issue, mode: "auto" } });
    const none = await approveJob(as(db, a, a.ownerId), j);
    const third = await db.grant.findUniqueOrThrow({ where: { id: none.grantId } });
    expect(third.outputs).toEqual({}); // a request grants nothing
  });

  test("[O02] refuses limits above the request, a wider target and unrequested kinds", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "refused");
    const ctx = as(db, a, a.ownerId);
    expect(await failure(approveJob(ctx, { ...j, outputs: { comment: { max: 4 } } }))).toBe(
      "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
    );
    expect(await failure(approveJob(ctx, { ...j, outputs: { issue: { max: 0 } } }))).toBe(
      "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
    );
    expect(await failure(approveJob(ctx, { ...j, outputs: { comment: { target: "any" } } }))).toBe(
      "BAD_REQUEST:OUTPUT_TARGET_WIDER",
    );
    const plain = await requestJob(db, a, job("plain", []));
    const plainRow = await db.job.findUniqueOrThrow({ where: { id: plain.jobId } });
    expect(
      await failure(
        approveJob(ctx, {
          jobId: plain.jobId,
          requestHash: plainRow.requestHash,
          outputs: { comment: {} },
        }),
      ),
    ).toBe("BAD_REQUEST:OUTPUT_NOT_REQUESTED");
    expect(await db.grant.count({ where: { jobId: j.jobId } })).toBe(0);
  });

  test("[O02] a pull request is granted with the request's draft and labels and lower limits", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-granted");
    const ctx = as(db, a, a.ownerId);
    const held = await approveJob(ctx, { ...j, outputs: { pull_request: { maxFiles: 2 } } });
    const grant = await db.grant.findUniqueOrThrow({ where: { id: held.grantId } });
    expect(grant.outputs).toEqual({
      pull_request: {
        draft: true,
        labels: ["automated"],
        maxFiles: 2,
        maxChangedLines: 200,
        mode: "hold",
      },
    });
    const auto = await approveJob(ctx, {
      ...j,
      outputs: { pull_request: { mode: "auto", maxFiles: 5, maxChangedLines: 50 } },
    });
    const second = await db.grant.findUniqueOrThrow({ where: { id: auto.grantId } });
    expect(second.outputs).toEqual({
      pull_request: { ...requested.pull_request, maxChangedLines: 50, mode: "auto" },
    });
    const review = await getAccessReview(as(db, a, a.viewerId), { jobId: j.jobId });
    expect(review.outputs.granted).toEqual(second.outputs);
  });

  test("[O02] a pull request limit above the request is refused", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-refused");
    const ctx = as(db, a, a.ownerId);
    for (const pull_request of [
      { maxFiles: 6 },
      { maxChangedLines: 201 },
      { maxFiles: 0 },
      { maxChangedLines: 1.5 },
    ])
      expect(await failure(approveJob(ctx, { ...j, outputs: { pull_request } }))).toBe(
        "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
      );
    const message: unknown = await approveJob(ctx, {
      ...j,
      outputs: { pull_request: { maxFiles: 6 } },
    }).catch((e: unknown) => (e instanceof Error ? e.message : e));
    expect(message).toContain("from 1 to 5, the job's request");
    const plain = await requestJob(
      db,
      a,
      job("pr-plain", [], { outputs: { comment: requested.comment } }),
    );
    const plainRow = await db.job.findUniqueOrThrow({ where: { id: plain.jobId } });
    expect(
      await failure(
        approveJob(ctx, {
          jobId: plain.jobId,
          requestHash: plainRow.requestHash,
          outputs: { pull_request: {} },
        }),
      ),
    ).toBe("BAD_REQUEST:OUTPUT_NOT_REQUESTED");
    expect(await db.grant.count({ where: { jobId: j.jobId } })).toBe(0);
  });

  test("[O02] without a GitHub App connection granting an output is refused", async ({
    db,
    tenants: { noApp },
  }) => {
    const j = await requesting(db, noApp, "no-app");
    const ctx = as(db, noApp, noApp.ownerId);
    const refused: unknown = await approveJob(ctx, { ...j, outputs: { comment: {} } }).catch(
      (e: unknown) => e,
    );
    expect(isAppError(refused) && refused.message).toContain(
      "connect the repository through the GitHub App",
    );
    // Tools alone can still be approved.
    await expect(approveJob(ctx, j)).resolves.toMatchObject({ groups: [] });
  });

  test("another workspace's job is not found; a non-owner is forbidden", async ({
    db,
    tenants: { a, b },
  }) => {
    const j = await requesting(db, b, "theirs");
    expect(
      await failure(approveJob(as(db, a, a.ownerId), { ...j, outputs: { comment: {} } })),
    ).toMatch(/^NOT_FOUND:/);
    expect(
      await failure(approveJob(as(db, b, b.adminId), { ...j, outputs: { comment: {} } })),
    ).toMatch(/^FORBIDDEN:/);
  });

  test("the access review shows requested outputs, the grant, availability and permissions", async ({
    db,
    tenants: { a, noApp },
  }) => {
    const j = await requesting(db, a, "reviewed");
    await approveJob(as(db, a, a.ownerId), { ...j, outputs: { comment: { mode: "auto" } } });
    const review = await getAccessReview(as(db, a, a.viewerId), { jobId: j.jobId });
    expect(review.outputs).toEqual({
      requested,
      granted: { comment: { ...requested.comment, mode: "auto" } },
      available: true,
      unavailableReason: null,
      permissions: {
        comment: ["Issues: write"],
        issue: ["Issues: write"],
        pull_request: ["Contents: write", "Pull requests: write"],
      },
      // This context cannot call GitHub: the review renders without the check.
      permissionsChecked: false,
      permissionsReason: expect.stringContaining("could not ask GitHub") as unknown,
      missing: {},
    });
    const other = await requesting(db, noApp, "unavailable");
    const blocked = await getAccessReview(as(db, noApp, noApp.ownerId), { jobId: other.jobId });
    expect(blocked.outputs).toMatchObject({
      available: false,
      unavailableReason: NO_GITHUB_APP_REASON,
      granted: {},
      permissionsChecked: false,
      permissionsReason: NO_GITHUB_APP_REASON,
      missing: {},
    });
  });
});

describe("approveJob: a pull request's protected paths", () => {
  test("[O04][O02] the owner's protected paths are stored trimmed, deduplicated, and read back", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-paths");
    const ctx = as(db, a, a.ownerId);
    const { grantId } = await approveJob(ctx, {
      ...j,
      outputs: {
        pull_request: { protectedPaths: [" migrations/ ", "db/schema.sql", "", "migrations/"] },
      },
    });
    const grant = await db.grant.findUniqueOrThrow({ where: { id: grantId } });
    expect(grant.outputs).toEqual({
      pull_request: {
        ...requested.pull_request,
        mode: "hold",
        protectedPaths: ["migrations/", "db/schema.sql"],
      },
    });
    const review = await getAccessReview(as(db, a, a.viewerId), { jobId: j.jobId });
    expect(review.outputs.granted.pull_request?.protectedPaths).toEqual([
      "migrations/",
      "db/schema.sql",
    ]);
    // None listed: no field at all (grants from before keep their shape).
    const none = await approveJob(ctx, { ...j, outputs: { pull_request: { protectedPaths: [] } } });
    const plain = await db.grant.findUniqueOrThrow({ where: { id: none.grantId } });
    expect(plain.outputs).toEqual({ pull_request: { ...requested.pull_request, mode: "hold" } });
  });

  test("[O04][O02] an absolute path, a .. segment, a long path or more than 20 are refused", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-bad-paths");
    const ctx = as(db, a, a.ownerId);
    for (const protectedPaths of [
      ["/etc/passwd"],
      ["src/../.github/"],
      ["..", "ok/"],
      ["a//b"],
      [`${"x".repeat(201)}`],
      ["a\\b"],
      Array.from({ length: 21 }, (_, i) => `dir${i}/`),
    ])
      expect(
        await failure(approveJob(ctx, { ...j, outputs: { pull_request: { protectedPaths } } })),
      ).toBe("BAD_REQUEST:OUTPUT_PROTECTED_PATH_INVALID");
    const message: unknown = await approveJob(ctx, {
      ...j,
      outputs: { pull_request: { protectedPaths: ["src/../x"] } },
    }).catch((e: unknown) => (e instanceof Error ? e.message : e));
    expect(message).toContain('"src/../x" must not contain "." or ".." segments');
    expect(await db.grant.count({ where: { jobId: j.jobId } })).toBe(0);
    const twenty = Array.from({ length: 20 }, (_, i) => `dir${i}/`);
    await expect(
      approveJob(ctx, { ...j, outputs: { pull_request: { protectedPaths: twenty } } }),
    ).resolves.toMatchObject({ grantId: expect.any(String) as unknown });
  });

  test("[O04] a stored grant never reads back more than the valid paths", () => {
    const stored = {
      pull_request: {
        ...requested.pull_request,
        mode: "auto",
        protectedPaths: ["ok/", "/abs", "../up", 7, "ok/"],
      },
    };
    expect(readGrantedOutputs(stored).pull_request?.protectedPaths).toEqual(["ok/"]);
    expect(
      readGrantedOutputs({ pull_request: { ...stored.pull_request, protectedPaths: [] } }),
    ).not.toHaveProperty("pull_request.protectedPaths");
  });
});

describe("the access review: the installation's permissions", () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

  /** GitHub's `GET /app/installations/{id}` for a JWT this app signed, else 401. */
  function github(answer: () => Response | Promise<Response>) {
    const seen: string[] = [];
    const outbound = async (input: string | URL, init?: RequestInit) => {
      seen.push(String(input));
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      const [header, payload, signature] = auth.replace(/^Bearer /, "").split(".");
      const valid = createVerify("RSA-SHA256")
        .update(`${header}.${payload}`)
        .verify(publicKey, Buffer.from(signature ?? "", "base64url"));
      const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as {
        iss: string;
      };
      if (!valid || claims.iss !== "77")
        return Response.json({ message: "Bad JWT" }, { status: 401 });
      return answer();
    };
    return { seen, outbound };
  }

  async function appTenant(db: Db, name: string, endpoint = "https://api.github.com") {
    const tenant = await seedTenant(db, name);
    const id = randomUUID();
    await db.connection.create({
      data: {
        id,
        workspaceId: tenant.workspaceId,
        kind: "GITHUB",
        label: "app",
        endpoint,
        authType: "GITHUB_APP",
        settings: { appId: 77, installationId: "4242" },
        credentialCiphertext: await encryptField(keyring, pem, {
          workspaceId: tenant.workspaceId,
          table: "Connection",
          rowId: id,
          field: "credentialCiphertext",
        }),
      },
    });
    await db.repository.update({ where: { id: tenant.repositoryId }, data: { connectionId: id } });
    return tenant;
  }

  test("[O02] lists per kind what the installation lacks, read with the App's JWT", async ({
    db,
  }) => {
    const t = await appTenant(db, "perm-read", "https://ghe.example.com/api/v3/");
    const j = await requesting(db, t, "perm");
    const gh = github(() =>
      Response.json({
        id: 4242,
        permissions: { contents: "write", issues: "read", metadata: "read" },
      }),
    );
    const review = await getAccessReview(
      { ...as(db, t, t.viewerId), outbound: gh.outbound },
      { jobId: j.jobId },
    );
    expect(gh.seen).toEqual(["https://ghe.example.com/api/v3/app/installations/4242"]);
    expect(review.outputs).toMatchObject({
      permissionsChecked: true,
      permissionsReason: null,
      missing: {
        comment: ["Issues: write"],
        issue: ["Issues: write"],
        pull_request: ["Pull requests: write"],
      },
    });

    const admin = github(() =>
      Response.json({
        permissions: { contents: "admin", issues: "write", pull_requests: "write" },
      }),
    );
    const full = await getAccessReview(
      { ...as(db, t, t.viewerId), outbound: admin.outbound },
      { jobId: j.jobId },
    );
    expect(full.outputs.missing).toEqual({ comment: [], issue: [], pull_request: [] });
  });

  test("[O02] GitHub refusing, unreachable or answering nonsense: the review still renders, approving stays possible", async ({
    db,
  }) => {
    const t = await appTenant(db, "perm-fail");
    const j = await requesting(db, t, "perm-fail");
    const cases: Array<[() => Response | Promise<Response>, string]> = [
      [() => Response.json({ message: "Not Found" }, { status: 404 }), "HTTP 404"],
      [() => Response.json({ message: "boom" }, { status: 502 }), "HTTP 502"],
      [() => Promise.reject(new TypeError("fetch failed")), "could not be reached"],
      [() => new Response("<html>", { status: 200 }), "named no permissions"],
    ];
    for (const [answer, words] of cases) {
      const gh = github(answer);
      const review = await getAccessReview(
        { ...as(db, t, t.ownerId), outbound: gh.outbound },
        { jobId: j.jobId },
      );
      expect(review.outputs).toMatchObject({ permissionsChecked: false, missing: {} });
      expect(review.outputs.permissionsReason).toContain(words);
    }
    // A JWT for another app id: GitHub's 401 is a reason too.
    await db.connection.updateMany({
      where: { workspaceId: t.workspaceId },
      data: { settings: { appId: 78, installationId: 4242 } },
    });
    const gh = github(() => Response.json({ permissions: {} }));
    const refused = await getAccessReview(
      { ...as(db, t, t.ownerId), outbound: gh.outbound },
      { jobId: j.jobId },
    );
    expect(refused.outputs.permissionsReason).toContain("HTTP 401");
    // Not a blocker: the grant is decided from the request alone.
    await expect(
      approveJob(as(db, t, t.ownerId), { ...j, outputs: { pull_request: {} } }),
    ).resolves.toMatchObject({ grantId: expect.any(String) as unknown });
  });
});
