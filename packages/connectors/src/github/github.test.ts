// The GitHub connector against a loopback fake that answers with GitHub's documented response
// shapes. [C22]: allowlisted read tools, the job's repository only, refused before any request.
import { createVerify, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGithubConnector } from "./connector.ts";
import { githubTools } from "./tools.ts";
import { json, startFakeRest, type FakeRest } from "../testing/fake-rest.ts";
import { callOptions, testDeps } from "../testing/outbound.ts";
import type { ConnectionTarget } from "../types.ts";

const TOKEN = "ghp_plantedTokenValue0123456789abcdef";
const issue = (n: number) => ({
  id: 1000 + n,
  number: n,
  title: `Issue ${n}`,
  state: "open",
  user: { login: "octocat", id: 1 },
  labels: [{ id: 1, name: "bug" }],
  body: "It breaks.",
  html_url: `https://github.com/acme/widgets/issues/${n}`,
});

describe("GitHub connector", () => {
  let fake: FakeRest;
  const t = testDeps();
  const connector = createGithubConnector(t.deps) as ReturnType<typeof createGithubConnector> & {
    cachedTokenCount(runId?: string): number;
  };
  const target = (overrides: Partial<ConnectionTarget> = {}): ConnectionTarget => ({
    connectionId: "c-gh",
    workspaceId: "w1",
    kind: "GITHUB",
    endpoint: `${fake.base}/api/v3`,
    authType: "BEARER",
    authHeaderName: null,
    settings: {},
    ...overrides,
  });
  const secrets = { credential: TOKEN };

  beforeAll(async () => {
    fake = await startFakeRest();
    fake.route("GET /api/v3/repos/acme/widgets/issues/7", (_q, res) => json(res, 200, issue(7)));
    fake.route("GET /api/v3/repos/acme/widgets/issues", (_q, res, base) =>
      json(res, 200, [issue(1), issue(2)], {
        link: `<${base}/api/v3/repositories/1/issues?state=open&page=2>; rel="next", <${base}/api/v3/repositories/1/issues?state=open&page=4>; rel="last"`,
      }),
    );
    fake.route("GET /api/v3/repos/acme/widgets/contents/src/index.ts", (_q, res) =>
      res
        .writeHead(200, { "content-type": "application/vnd.github.raw" })
        .end("export const answer = 42;\n"),
    );
    fake.route("GET /api/v3/repos/acme/widgets/pulls/3", (_q, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("diff --git a/x b/x\n+added\n"),
    );
    fake.route("GET /api/v3/search/code", (_q, res) =>
      json(res, 200, {
        total_count: 1,
        incomplete_results: false,
        items: [
          {
            name: "index.ts",
            path: "src/index.ts",
            sha: "abc",
            repository: { full_name: "acme/widgets" },
          },
        ],
      }),
    );
    fake.route("GET /api/v3/repos/acme/widgets/actions/runs/55/jobs", (_q, res) =>
      json(res, 200, {
        total_count: 2,
        jobs: [
          {
            id: 501,
            run_id: 55,
            name: "build",
            status: "completed",
            conclusion: "success",
            steps: [{ name: "Compile", status: "completed", conclusion: "success", number: 1 }],
          },
          {
            id: 502,
            run_id: 55,
            name: "test",
            status: "completed",
            conclusion: "failure",
            steps: [{ name: "Run tests", status: "completed", conclusion: "failure", number: 3 }],
          },
        ],
      }),
    );
    // GitHub answers job logs with a redirect to a pre-signed download URL.
    fake.route("GET /api/v3/repos/acme/widgets/actions/jobs/502/logs", (_q, res, base) =>
      res.writeHead(302, { location: `${base}/logs-download/502` }).end(),
    );
    fake.route("GET /logs-download/502", (_q, res) =>
      res
        .writeHead(200, { "content-type": "text/plain" })
        .end(`${"noise line\n".repeat(5000)}Error: expected 1 to be 2\n`),
    );
  });
  beforeEach(() => void (fake.requests.length = 0));
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it("offers only read tools with closed input schemas", async () => {
    const tools = await connector.listTools(target(), secrets, callOptions());
    expect(tools.map((x) => x.name)).toEqual(githubTools.map((x) => x.descriptor.name));
    for (const tool of tools) {
      expect(tool.mayChangeData).toBe(false);
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    }
  });

  it("gets an issue with the token and GitHub's headers (Enterprise base path)", async () => {
    const result = await connector.callTool(
      target(),
      secrets,
      "get_issue",
      { issue_number: 7 },
      callOptions(),
    );
    expect(JSON.parse(result.content[0]?.text ?? "{}")).toMatchObject({
      number: 7,
      title: "Issue 7",
    });
    const [req] = fake.requests;
    expect(req?.path).toBe("/api/v3/repos/acme/widgets/issues/7");
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers["x-github-api-version"]).toBe("2022-11-28");
  });

  it("follows the Link header for pagination", async () => {
    const result = await connector.callTool(
      target(),
      secrets,
      "list_issues",
      { state: "open", per_page: 2 },
      callOptions(),
    );
    expect(result.content[0]?.text).toContain("page=2");
    expect(fake.requests[0]?.query.get("per_page")).toBe("2");
  });

  it("reads a file, a diff and searches code in the job's repository only", async () => {
    const file = await connector.callTool(
      target(),
      secrets,
      "get_file_contents",
      { path: "src/index.ts", ref: "main" },
      callOptions(),
    );
    expect(file.content[0]?.text).toContain("answer = 42");
    expect(fake.requests[0]?.query.get("ref")).toBe("main");
    const diff = await connector.callTool(
      target(),
      secrets,
      "get_pull_request_diff",
      { pull_number: 3 },
      callOptions(),
    );
    expect(diff.content[0]?.text).toContain("diff --git");
    expect(fake.requests[1]?.headers.accept).toBe("application/vnd.github.diff");
    await connector.callTool(target(), secrets, "search_code", { query: "answer" }, callOptions());
    expect(fake.requests[2]?.query.get("q")).toBe("answer repo:acme/widgets");
  });

  it("summarises a workflow run's failed job log (redirect followed, tail only)", async () => {
    const result = await connector.callTool(
      target(),
      secrets,
      "get_workflow_run_logs",
      { run_id: 55 },
      callOptions({ maxResultBytes: 4_000 }),
    );
    const text = result.content[0]?.text ?? "";
    expect(text).toContain("failed step 3: Run tests");
    expect(text).toContain("Error: expected 1 to be 2");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_100);
    // The redirect to the download URL was followed (netguard re-checks every hop).
    expect(fake.requests.map((r) => r.path)).toContain("/logs-download/502");
  });

  it("accepts the job's repository in any letter case", async () => {
    await connector.callTool(
      target(),
      secrets,
      "get_issue",
      { owner: "ACME", repo: "Widgets", issue_number: 7 },
      callOptions(),
    );
    expect(fake.requests[0]?.path).toBe("/api/v3/repos/acme/widgets/issues/7");
  });

  const refusals: [string, string, Record<string, unknown>, string][] = [
    ["another owner", "get_issue", { owner: "evil", issue_number: 1 }, "OUT_OF_SCOPE"],
    ["another repository", "list_issues", { owner: "acme", repo: "secrets" }, "OUT_OF_SCOPE"],
    ["a path in owner", "get_issue", { owner: "acme/../evil", issue_number: 1 }, "OUT_OF_SCOPE"],
    [
      "an encoded slash in repo",
      "get_issue",
      { repo: "widgets%2F..%2Fsecrets", issue_number: 1 },
      "OUT_OF_SCOPE",
    ],
    ["a look-alike repository", "get_issue", { repo: "widgets.", issue_number: 1 }, "OUT_OF_SCOPE"],
    [
      "a repo: qualifier in search",
      "search_code",
      { query: "password repo:evil/x" },
      "OUT_OF_SCOPE",
    ],
    ["an org: qualifier in search", "search_code", { query: "password org:evil" }, "OUT_OF_SCOPE"],
    [
      "a traversing file path",
      "get_file_contents",
      { path: "../../../orgs/evil" },
      "INVALID_ARGUMENTS",
    ],
    [
      "an encoded traversing file path",
      "get_file_contents",
      { path: "src/%2e%2e/%2e%2e/x" },
      "INVALID_ARGUMENTS",
    ],
    ["a tool outside the allowlist", "create_issue", { title: "x" }, "UNKNOWN_TOOL"],
  ];
  it.each(refusals)("[C22] refuses %s before any request", async (_label, tool, args, reason) => {
    await expect(
      connector.callTool(target(), secrets, tool, args, callOptions()),
    ).rejects.toMatchObject({ reason });
    expect(fake.requests).toHaveLength(0);
  });

  it("[C22] refuses every call when the run has no repository scope", async () => {
    await expect(
      connector.callTool(
        target(),
        secrets,
        "list_issues",
        {},
        callOptions({ scope: { repositoryFullName: null } }),
      ),
    ).rejects.toMatchObject({ reason: "OUT_OF_SCOPE" });
    expect(fake.requests).toHaveLength(0);
  });

  it("[C25] a refused token gives AUTH_FAILED and the token appears in no result, error or log", async () => {
    fake.route("GET /api/v3/repos/acme/widgets/issues/8", (q, res) =>
      json(res, 401, { message: "Bad credentials", echoed: q.headers.authorization }),
    );
    const error: unknown = await connector
      .callTool(target(), secrets, "get_issue", { issue_number: 8 }, callOptions())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "AUTH_FAILED" });
    expect(
      JSON.stringify(error) + String((error as Error).stack) + String((error as Error).cause),
    ).not.toContain(TOKEN);
    const ok = await connector.callTool(
      target(),
      secrets,
      "get_issue",
      { issue_number: 7 },
      callOptions(),
    );
    expect(JSON.stringify(ok)).not.toContain(TOKEN);
    expect(t.logs()).not.toContain(TOKEN);
  });

  describe("GitHub App", () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const appTarget = () =>
      target({ authType: "GITHUB_APP", settings: { appId: 4242, installationId: 99 } });
    let minted = 0;

    beforeAll(() => {
      const verifyJwt = (auth: string | undefined) => {
        const [h, p, s] = (auth ?? "").replace(/^Bearer /, "").split(".");
        const ok = createVerify("RSA-SHA256")
          .update(`${h}.${p}`)
          .verify(publicKey, Buffer.from(s ?? "", "base64url"));
        const payload = JSON.parse(Buffer.from(p ?? "", "base64url").toString()) as {
          iss: string;
          exp: number;
          iat: number;
        };
        return ok && payload.iss === "4242" && payload.exp - payload.iat <= 600;
      };
      fake.route("GET /api/v3/app/installations/99", (q, res) =>
        verifyJwt(q.headers.authorization)
          ? json(res, 200, {
              id: 99,
              account: { login: "acme" },
              permissions: {
                contents: "read",
                issues: "write",
                pull_requests: "write",
                metadata: "read",
              },
            })
          : json(res, 401, {}),
      );
      fake.route("POST /api/v3/app/installations/99/access_tokens", (q, res) => {
        if (!verifyJwt(q.headers.authorization)) return json(res, 401, {});
        minted += 1;
        const body = JSON.parse(q.body) as {
          repositories: string[];
          permissions: Record<string, string>;
        };
        json(res, 201, {
          token: `ghs_installation${minted}`,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          permissions: body.permissions,
          repository_selection: "selected",
          repositories: body.repositories.map((name) => ({ name, full_name: `acme/${name}` })),
        });
      });
      fake.route("DELETE /api/v3/installation/token", (_q, res) => res.writeHead(204).end());
    });

    it("[P03] mints a read-only token for the job's repository only, reuses it in the run, revokes it after", async () => {
      const opts = callOptions({ scope: { repositoryFullName: "acme/widgets", runId: "run-1" } });
      await connector.callTool(
        appTarget(),
        { credential: pem },
        "get_issue",
        { issue_number: 7 },
        opts,
      );
      await connector.callTool(appTarget(), { credential: pem }, "list_issues", {}, opts);
      const mint = fake.requests.find((r) => r.path.endsWith("/access_tokens"));
      expect(JSON.parse(mint?.body ?? "{}")).toEqual({
        repositories: ["widgets"],
        permissions: { contents: "read", issues: "read", pull_requests: "read", metadata: "read" },
      });
      const toolCalls = fake.requests.filter((r) => r.path.startsWith("/api/v3/repos/"));
      expect(toolCalls.map((r) => r.headers.authorization)).toEqual([
        "Bearer ghs_installation1",
        "Bearer ghs_installation1",
      ]);
      expect(minted).toBe(1);
      expect(connector.cachedTokenCount("run-1")).toBe(1);

      await connector.disposeRun?.("run-1");
      expect(connector.cachedTokenCount()).toBe(0);
      const revoke = fake.requests.find((r) => r.method === "DELETE");
      expect(revoke?.headers.authorization).toBe("Bearer ghs_installation1");

      await connector.callTool(
        appTarget(),
        { credential: pem },
        "get_issue",
        { issue_number: 7 },
        callOptions({ scope: { repositoryFullName: "acme/widgets", runId: "run-2" } }),
      );
      expect(minted).toBe(2);
      await connector.disposeRun?.("run-2");
      expect(t.logs()).not.toContain("ghs_installation");
      expect(t.logs()).not.toContain("PRIVATE KEY");
    });

    it("[C22] refuses another repository before minting anything", async () => {
      const before = minted;
      await expect(
        connector.callTool(
          appTarget(),
          { credential: pem },
          "get_issue",
          { repo: "other", issue_number: 1 },
          callOptions({ scope: { repositoryFullName: "acme/widgets", runId: "run-3" } }),
        ),
      ).rejects.toMatchObject({ reason: "OUT_OF_SCOPE" });
      expect(minted).toBe(before);
      expect(fake.requests).toHaveLength(0);
    });

    it("[C25] an unreadable private key fails without echoing it", async () => {
      const bad = "-----BEGIN PRIVATE KEY-----\nnot-a-key-planted-9f8e\n-----END PRIVATE KEY-----";
      const error: unknown = await connector
        .callTool(appTarget(), { credential: bad }, "get_issue", { issue_number: 7 }, callOptions())
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: "AUTH_FAILED" });
      expect(JSON.stringify(error) + String((error as Error).stack)).not.toContain(
        "not-a-key-planted",
      );
    });
  });
});
