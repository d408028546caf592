// The Sentry connector against a loopback fake with Sentry's documented response shapes and
// cursor pagination. [C22]: read tools only, the owner's organization only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSentryConnector } from "./connector.ts";
import { json, startFakeRest, type FakeRest } from "../testing/fake-rest.ts";
import { callOptions, testDeps } from "../testing/outbound.ts";
import type { ConnectionTarget } from "../types.ts";

const TOKEN = "sntrys_plantedSentryToken_51c0";
const sentryIssue = {
  id: "4711",
  shortId: "WIDGETS-1A",
  title: "TypeError: x is undefined",
  culprit: "app/main.js",
  level: "error",
  status: "unresolved",
  count: "12",
  userCount: 3,
  firstSeen: "2026-11-01T10:00:00Z",
  lastSeen: "2026-11-29T10:00:00Z",
  project: { id: "2", slug: "widgets", name: "widgets" },
  permalink: "https://acme-org.sentry.io/issues/4711/",
};

describe("Sentry connector", () => {
  let fake: FakeRest;
  const t = testDeps();
  const connector = createSentryConnector(t.deps);
  const target = (
    settings: Record<string, unknown> = { organization: "acme-org" },
  ): ConnectionTarget => ({
    connectionId: "c-sentry",
    workspaceId: "w1",
    kind: "SENTRY",
    endpoint: fake.base,
    authType: "BEARER",
    authHeaderName: null,
    settings,
  });
  const secrets = { credential: TOKEN };

  beforeAll(async () => {
    fake = await startFakeRest();
    fake.route("GET /api/0/organizations/acme-org/issues/", (_q, res, base) =>
      json(res, 200, [sentryIssue], {
        link: `<${base}/api/0/organizations/acme-org/issues/?cursor=0:0:1>; rel="previous"; results="false"; cursor="0:0:1", <${base}/api/0/organizations/acme-org/issues/?cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"`,
      }),
    );
    fake.route("GET /api/0/organizations/acme-org/projects/", (_q, res) =>
      json(res, 200, [
        {
          id: "2",
          slug: "widgets",
          name: "widgets",
          platform: "node",
          dateCreated: "2026-01-01T00:00:00Z",
        },
      ]),
    );
    fake.route("GET /api/0/organizations/acme-org/issues/4711/", (_q, res) =>
      json(res, 200, sentryIssue),
    );
    fake.route("GET /api/0/organizations/acme-org/issues/4711/events/latest/", (_q, res) =>
      json(res, 200, {
        id: "e1",
        eventID: "9fac2ceed9344f2bbfdd1fdacb0ed9b1",
        groupID: "4711",
        message: "",
        title: sentryIssue.title,
        platform: "node",
        tags: [{ key: "environment", value: "production" }],
        entries: [
          {
            type: "exception",
            data: {
              values: [
                {
                  type: "TypeError",
                  value: "x is undefined",
                  stacktrace: {
                    frames: [{ filename: "app/main.js", function: "run", lineNo: 10 }],
                  },
                },
              ],
            },
          },
        ],
      }),
    );
  });
  beforeEach(() => void (fake.requests.length = 0));
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it("offers only read tools with closed schemas", async () => {
    const tools = await connector.listTools(target(), secrets, callOptions());
    expect(tools.map((x) => x.name)).toEqual([
      "list_projects",
      "list_issues",
      "get_issue",
      "get_issue_events",
      "get_latest_event",
    ]);
    for (const tool of tools)
      expect(tool).toMatchObject({
        mayChangeData: false,
        inputSchema: { additionalProperties: false },
      });
  });

  it("lists issues of the organization with the token and a next cursor", async () => {
    const result = await connector.callTool(
      target(),
      secrets,
      "list_issues",
      { project: 2, query: "is:unresolved" },
      callOptions(),
    );
    expect(result.content.map((c) => c.text).join("")).toContain('cursor="0:100:0"');
    expect(result.content.map((c) => c.text).join("")).toContain("WIDGETS-1A");
    const [req] = fake.requests;
    expect(req?.path).toBe("/api/0/organizations/acme-org/issues/");
    expect(req?.query.get("project")).toBe("2");
    expect(req?.query.get("query")).toBe("is:unresolved");
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("gets projects, an issue and its latest event", async () => {
    await connector.callTool(target(), secrets, "list_projects", {}, callOptions());
    const issue = await connector.callTool(
      target(),
      secrets,
      "get_issue",
      { issue_id: "4711" },
      callOptions(),
    );
    expect(JSON.parse(issue.content[0]?.text ?? "{}")).toMatchObject({ shortId: "WIDGETS-1A" });
    const event = await connector.callTool(
      target(),
      secrets,
      "get_latest_event",
      { organization: "ACME-ORG", issue_id: "4711" },
      callOptions(),
    );
    expect(event.content[0]?.text).toContain("x is undefined");
    expect(fake.requests.map((r) => r.path)).toEqual([
      "/api/0/organizations/acme-org/projects/",
      "/api/0/organizations/acme-org/issues/4711/",
      "/api/0/organizations/acme-org/issues/4711/events/latest/",
    ]);
  });

  const refusals: [string, string, Record<string, unknown>, string][] = [
    ["another organization", "list_issues", { organization: "evil-org" }, "OUT_OF_SCOPE"],
    [
      "a path in the organization",
      "list_projects",
      { organization: "acme-org/../evil" },
      "OUT_OF_SCOPE",
    ],
    [
      "a traversing issue id",
      "get_issue",
      { issue_id: "../../evil-org/issues" },
      "INVALID_ARGUMENTS",
    ],
    [
      "an encoded slash in the issue id",
      "get_issue",
      { issue_id: "1%2F..%2F.." },
      "INVALID_ARGUMENTS",
    ],
    ["a tool outside the allowlist", "resolve_issue", { issue_id: "4711" }, "UNKNOWN_TOOL"],
  ];
  it.each(refusals)("[C22] refuses %s before any request", async (_label, tool, args, reason) => {
    await expect(
      connector.callTool(target(), secrets, tool, args, callOptions()),
    ).rejects.toMatchObject({ reason });
    expect(fake.requests).toHaveLength(0);
  });

  it("[C22] refuses every call when the owner chose no organization", async () => {
    await expect(
      connector.callTool(target({}), secrets, "list_projects", {}, callOptions()),
    ).rejects.toMatchObject({ reason: "INVALID_SETTINGS" });
    expect(fake.requests).toHaveLength(0);
  });

  it("[C25] the token appears in no result, error or log", async () => {
    fake.route("GET /api/0/organizations/acme-org/issues/1/", (q, res) =>
      json(res, 403, { detail: "forbidden", echoed: q.headers.authorization }),
    );
    const error: unknown = await connector
      .callTool(target(), secrets, "get_issue", { issue_id: "1" }, callOptions())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "AUTH_FAILED" });
    expect(JSON.stringify(error) + String((error as Error).stack)).not.toContain(TOKEN);
    const ok = await connector.callTool(target(), secrets, "list_issues", {}, callOptions());
    expect(JSON.stringify(ok)).not.toContain(TOKEN);
    expect(t.logs()).not.toContain(TOKEN);
  });
});
