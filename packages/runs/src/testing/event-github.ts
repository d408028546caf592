// Test wiring for event runs: the GitHub reads the worker's screen makes, on the loopback fake
// GitHub App's server in GitHub's wire format — `GET /repos/{o}/{r}/collaborators/{u}/permission`
// (`{ permission, role_name, user }`; 404 for someone who is not a collaborator) and
// `GET /repos/{o}/{r}/pulls/{n}` (`head.sha`…). Both accept only live tokens the fake app minted
// for that repository with `metadata` / `pull_requests`. And an EVENT run with its TriggerEvent.
import type { ServerResponse } from "node:http";
import type { Db, Prisma } from "@secondshift/db";
import type { SeededWorkspace } from "@secondshift/db/testing";
import type { ApplyFixture } from "@secondshift/outputs/testing/apply-fixture";

type FakeApp = ApplyFixture["app"];

export interface FakeEventGithub {
  /** login → GitHub's permission; a login not here is not a collaborator (404). */
  permissions: Map<string, string>;
  /** pull request number → its head commit now. */
  heads: Map<number, string>;
  /** A status every read answers with (GitHub down: 502), or null. */
  failWith: number | null;
  /** The reads made, in order ("permission:login", "pull:7"). */
  reads: string[];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

export function routeEventGithub(app: FakeApp, repo: { owner: string; repo: string }) {
  const fake: FakeEventGithub = {
    permissions: new Map(),
    heads: new Map(),
    failWith: null,
    reads: [],
  };
  const base = `/repos/${repo.owner}/${repo.repo}`;
  const allowed = (authorization: string | undefined, permission: string) => {
    const grant = app.grantOf((authorization ?? "").replace(/^(Bearer|token) /, ""));
    return (
      grant !== null && grant.repositories.includes(repo.repo) && permission in grant.permissions
    );
  };
  const permissionPath = new RegExp(`^${base}/collaborators/([^/]+)/permission$`);
  app.rest.routePattern("GET", permissionPath, (req, res, match) => {
    const login = decodeURIComponent(match[1] ?? "");
    fake.reads.push(`permission:${login}`);
    if (fake.failWith !== null) return send(res, fake.failWith, { message: "Server Error" });
    if (!allowed(req.headers.authorization, "metadata"))
      return send(res, 403, { message: "Resource not accessible by integration" });
    const permission = fake.permissions.get(login);
    if (permission === undefined)
      return send(res, 404, { message: `${login} is not a user`, status: "404" });
    send(res, 200, {
      permission,
      role_name: permission,
      user: { login, id: 1, type: "User", site_admin: false },
    });
  });
  app.rest.routePattern("GET", new RegExp(`^${base}/pulls/([0-9]+)$`), (req, res, match) => {
    const number = Number(match[1]);
    fake.reads.push(`pull:${number}`);
    if (fake.failWith !== null) return send(res, fake.failWith, { message: "Server Error" });
    if (!allowed(req.headers.authorization, "pull_requests"))
      return send(res, 403, { message: "Resource not accessible by integration" });
    const sha = fake.heads.get(number);
    if (sha === undefined) return send(res, 404, { message: "Not Found" });
    send(res, 200, {
      number,
      state: "open",
      head: { sha, ref: "feature", repo: { full_name: `${repo.owner}/${repo.repo}` } },
      base: { ref: "main", sha: "0".repeat(40) },
    });
  });
  return fake;
}

export type TriggerEventInput = Partial<
  Omit<Prisma.TriggerEventUncheckedCreateInput, "workspaceId" | "jobId" | "runId">
>;

/** A QUEUED run started by an event, and the event (a pull request opened by "alice"). */
export async function seedEventRun(
  db: Db,
  seed: Pick<SeededWorkspace, "workspaceId" | "jobId">,
  options: {
    event?: TriggerEventInput;
    commitSha?: string | null;
    status?: "QUEUED" | "RUNNING";
  } = {},
) {
  const status = options.status ?? "QUEUED";
  const run = await db.run.create({
    data: {
      workspaceId: seed.workspaceId,
      jobId: seed.jobId,
      trigger: "EVENT",
      status,
      budgetTokens: 10_000,
      commitSha: options.commitSha === undefined ? "a".repeat(40) : options.commitSha,
      startedAt: status === "QUEUED" ? null : new Date(),
      heartbeatAt: status === "RUNNING" ? new Date() : null,
    },
    select: { id: true, workspaceId: true },
  });
  const event = await db.triggerEvent.create({
    data: {
      workspaceId: seed.workspaceId,
      jobId: seed.jobId,
      runId: run.id,
      deliveryId: crypto.randomUUID(),
      kind: "pull_request",
      action: "opened",
      subjectType: "pull_request",
      subjectNumber: 7,
      subjectTitle: "Add a widget",
      subjectUrl: "https://github.com/acme/app/pull/7",
      subjectAuthor: "alice",
      actorLogin: "alice",
      headSha: "a".repeat(40),
      headRef: "feature",
      baseRef: "main",
      dedupeKey: crypto.randomUUID(),
      outcome: "queued",
      ...options.event,
    },
  });
  return { run, event };
}
