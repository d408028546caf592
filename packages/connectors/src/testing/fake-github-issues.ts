// A loopback fake of GitHub's issues and issue-comments REST endpoints for one repository, on
// the fake GitHub App's server and in the real wire format: `POST/GET /repos/{o}/{r}/issues`,
// `POST/GET /repos/{o}/{r}/issues/{n}/comments` (pull requests are issues here, as on GitHub).
// It accepts only live tokens the fake app minted, for this repository, with the permission
// the call needs; it records every call (method, path, body, token) so tests can assert what
// was sent and with which token. `latencyMs` delays every answer (for a benchmark);
// `failNext` answers the next calls with a status; `dropAfterCreate` creates the object and
// then cuts the connection — GitHub did it, the caller never heard (a crash after create).
import type { ServerResponse } from "node:http";
import type { FakeGithubApp } from "./fake-github-app.ts";
import { json, type SeenRequest } from "./fake-rest.ts";

export interface FakeIssueCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  token: string;
}

export interface FakeIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  labels: string[];
  login: string;
  createdAt: string;
  comments: FakeComment[];
}

export interface FakeComment {
  id: number;
  body: string;
  login: string;
  createdAt: string;
}

export interface FakeGithubIssues {
  owner: string;
  repo: string;
  issues: FakeIssue[];
  calls: FakeIssueCall[];
  /** Calls that create something (POST), in order. */
  creates(): FakeIssueCall[];
  /** An issue (or pull request) that exists before the test, opened by someone else. */
  seedIssue(title: string): FakeIssue;
  /** Answers the next `times` calls (of `method` only, when given) with `status`. */
  failNext(status: number, options?: { times?: number; method?: "GET" | "POST" }): void;
  dropAfterCreate: boolean;
  latencyMs: number;
}

const REPO_PATH = /^\/repos\/([^/]+)\/([^/]+)\/issues(?:\/(\d+)\/comments)?$/;

export function startFakeGithubIssues(
  app: FakeGithubApp,
  options: { owner?: string; repo?: string; appSlug?: string; latencyMs?: number } = {},
): FakeGithubIssues {
  const owner = options.owner ?? "acme";
  const repo = options.repo ?? "app";
  const botLogin = `${options.appSlug ?? "secondshift"}[bot]`;
  let nextId = 1000;
  const failures: Array<{ status: number; method?: string }> = [];
  const fake: FakeGithubIssues = {
    owner,
    repo,
    issues: [],
    calls: [],
    creates: () => fake.calls.filter((c) => c.method === "POST"),
    seedIssue: (title) => addIssue({ title, body: "Reported by a person.", labels: [] }, "octocat"),
    failNext: (status, { times = 1, method } = {}) => {
      for (let i = 0; i < times; i++) failures.push(method ? { status, method } : { status });
    },
    dropAfterCreate: false,
    latencyMs: options.latencyMs ?? 0,
  };
  const htmlBase = `https://github.test/${owner}/${repo}`;

  function addIssue(input: { title: string; body: string; labels: string[] }, login: string) {
    const issue: FakeIssue = {
      id: nextId++,
      number: fake.issues.length + 1,
      ...input,
      login,
      createdAt: new Date().toISOString(),
      comments: [],
    };
    fake.issues.push(issue);
    return issue;
  }

  const user = (login: string) => ({
    login,
    id: login === botLogin ? 41898282 : 583231,
    type: login === botLogin ? "Bot" : "User",
  });
  const issueJson = (i: FakeIssue) => ({
    id: i.id,
    node_id: `I_${i.id}`,
    number: i.number,
    title: i.title,
    body: i.body,
    state: "open",
    labels: i.labels.map((name, k) => ({ id: k + 1, name, color: "ededed" })),
    user: user(i.login),
    comments: i.comments.length,
    html_url: `${htmlBase}/issues/${i.number}`,
    url: `${app.apiBase}/repos/${owner}/${repo}/issues/${i.number}`,
    created_at: i.createdAt,
    updated_at: i.comments.at(-1)?.createdAt ?? i.createdAt,
  });
  const commentJson = (i: FakeIssue, c: FakeComment) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    body: c.body,
    user: user(c.login),
    html_url: `${htmlBase}/issues/${i.number}#issuecomment-${c.id}`,
    issue_url: `${app.apiBase}/repos/${owner}/${repo}/issues/${i.number}`,
    created_at: c.createdAt,
    updated_at: c.createdAt,
  });

  async function handle(req: SeenRequest, res: ServerResponse, match: RegExpExecArray) {
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
    const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /i, "");
    const body = req.body === "" ? null : (JSON.parse(req.body) as unknown);
    fake.calls.push({ method: req.method, path: req.path, query: req.query, body, token });
    const refusal = refuse(token, req.method, match);
    if (refusal) return json(res, refusal.status, { message: refusal.message });
    const failure = failures.findIndex((f) => f.method === undefined || f.method === req.method);
    if (failure >= 0) {
      const [{ status }] = failures.splice(failure, 1) as [{ status: number }];
      return json(res, status, failureBody(status));
    }
    const number = match[3] === undefined ? null : Number(match[3]);
    if (number === null) return issues(req, res, body);
    const issue = fake.issues.find((i) => i.number === number);
    if (!issue) return json(res, 404, { message: "Not Found" });
    return comments(req, res, issue, body);
  }

  function refuse(token: string, method: string, match: RegExpExecArray) {
    const grant = app.grantOf(token);
    if (grant === null) return { status: 401, message: "Bad credentials" };
    if (match[1] !== owner || match[2] !== repo || !grant.repositories.includes(repo))
      return { status: 404, message: "Not Found" };
    const level = grant.permissions.issues;
    if (level !== "write" && (method !== "GET" || level !== "read"))
      return { status: 403, message: "Resource not accessible by integration" };
    return null;
  }

  function issues(req: SeenRequest, res: ServerResponse, body: unknown) {
    if (req.method === "POST") {
      const input = body as { title?: unknown; body?: unknown; labels?: unknown };
      if (typeof input.title !== "string" || input.title === "")
        return json(res, 422, failureBody(422));
      const labels = Array.isArray(input.labels) ? input.labels.map(String) : [];
      const issue = addIssue(
        { title: input.title, body: typeof input.body === "string" ? input.body : "", labels },
        botLogin,
      );
      return created(res, issueJson(issue));
    }
    const since = req.query.get("since");
    const listed = fake.issues
      .filter((i) => since === null || issueJson(i).updated_at >= since)
      .sort((a, b) => b.number - a.number);
    return page(req, res, listed.map(issueJson));
  }

  function comments(req: SeenRequest, res: ServerResponse, issue: FakeIssue, body: unknown) {
    if (req.method === "POST") {
      const text = (body as { body?: unknown }).body;
      if (typeof text !== "string" || text === "") return json(res, 422, failureBody(422));
      const comment = {
        id: nextId++,
        body: text,
        login: botLogin,
        createdAt: new Date().toISOString(),
      };
      issue.comments.push(comment);
      return created(res, commentJson(issue, comment));
    }
    const since = req.query.get("since");
    const listed = issue.comments.filter((c) => since === null || c.createdAt >= since);
    return page(
      req,
      res,
      listed.map((c) => commentJson(issue, c)),
    );
  }

  function created(res: ServerResponse, value: unknown) {
    if (fake.dropAfterCreate) return void res.socket?.destroy();
    json(res, 201, value);
  }

  /** GitHub's pagination: `per_page` (default 30, at most 100), `page`, a `Link` header. */
  function page(req: SeenRequest, res: ServerResponse, all: unknown[]) {
    const perPage = Math.min(Number(req.query.get("per_page") ?? 30) || 30, 100);
    const number = Math.max(Number(req.query.get("page") ?? 1) || 1, 1);
    const items = all.slice((number - 1) * perPage, number * perPage);
    const more = number * perPage < all.length;
    const next = new URL(`${app.apiBase}${req.path}?${req.query.toString()}`);
    next.searchParams.set("page", String(number + 1));
    json(res, 200, items, more ? { link: `<${next.toString()}>; rel="next"` } : {});
  }

  app.rest.routePattern("POST", REPO_PATH, handle);
  app.rest.routePattern("GET", REPO_PATH, handle);
  return fake;
}

function failureBody(status: number) {
  const documentation_url = "https://docs.github.com/rest";
  if (status === 422)
    return {
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "invalid" }],
      documentation_url,
    };
  if (status === 429 || status === 403)
    return { message: "API rate limit exceeded", documentation_url };
  return { message: status >= 500 ? "Server Error" : "Refused", documentation_url };
}
