// The HTTP API connector: owner-defined operations against the owner's base URL, credential in a
// header, path parameters that can never become a path.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpConnector } from "./connector.ts";
import { json, startFakeRest, type FakeRest } from "../testing/fake-rest.ts";
import { callOptions, testDeps } from "../testing/outbound.ts";
import type { ConnectionTarget } from "../types.ts";

const KEY = "api-key-planted-77aa";
const operations = [
  {
    name: "get_item",
    description: "Get an item.",
    method: "GET",
    pathTemplate: "/v1/items/{id}",
    parameters: {
      type: "object",
      properties: { id: { type: "string" }, expand: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    query: ["expand"],
  },
  {
    name: "create_item",
    method: "POST",
    pathTemplate: "/v1/items",
    parameters: {
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: false,
    },
    body: ["name"],
  },
  {
    name: "big",
    method: "GET",
    pathTemplate: "/v1/big",
    parameters: { type: "object", properties: {} },
  },
];

describe("HTTP API connector", () => {
  let fake: FakeRest;
  const t = testDeps();
  const connector = createHttpConnector(t.deps);
  const target = (): ConnectionTarget => ({
    connectionId: "c-http",
    workspaceId: "w1",
    kind: "HTTP",
    endpoint: `${fake.base}/api`,
    authType: "HEADER",
    authHeaderName: "X-Api-Key",
    settings: { operations },
  });

  beforeAll(async () => {
    fake = await startFakeRest();
    fake.route("GET /api/v1/items/a%20b", (_q, res) =>
      json(res, 200, { id: "a b", name: "Widget" }),
    );
    fake.route("POST /api/v1/items", (q, res) =>
      json(res, 201, { id: "new", ...(JSON.parse(q.body) as object) }),
    );
    fake.route("GET /api/v1/big", (_q, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(100_000)),
    );
  });
  beforeEach(() => void (fake.requests.length = 0));
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it("lists the owner's operations; non-GET defaults to may change data", async () => {
    const tools = await connector.listTools(target(), { credential: KEY }, callOptions());
    expect(tools.map((x) => [x.name, x.mayChangeData])).toEqual([
      ["get_item", false],
      ["create_item", true],
      ["big", false],
    ]);
  });

  it("encodes the path parameter, maps the query and injects the credential header", async () => {
    const result = await connector.callTool(
      target(),
      { credential: KEY },
      "get_item",
      { id: "a b", expand: "all" },
      callOptions(),
    );
    expect(result.content.map((c) => c.text).join("")).toContain('"name":"Widget"');
    expect(fake.requests[0]?.query.get("expand")).toBe("all");
    expect(fake.requests[0]?.headers["x-api-key"]).toBe(KEY);
  });

  it("sends mapped body fields as JSON and returns error statuses as error results", async () => {
    const created = await connector.callTool(
      target(),
      { credential: KEY },
      "create_item",
      { name: "Gadget" },
      callOptions(),
    );
    expect(created.content[0]?.text).toContain("HTTP 201");
    expect(JSON.parse(fake.requests[0]?.body ?? "{}")).toEqual({ name: "Gadget" });
    const missing = await connector.callTool(
      target(),
      { credential: KEY },
      "get_item",
      { id: "nope" },
      callOptions(),
    );
    expect(missing).toMatchObject({ isError: true });
    expect(missing.content[0]?.text).toContain("HTTP 404");
  });

  it("caps a large body and marks it truncated", async () => {
    const result = await connector.callTool(
      target(),
      { credential: KEY },
      "big",
      {},
      callOptions({ maxResultBytes: 2_000 }),
    );
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.content.map((c) => c.text).join(""))).toBeLessThan(2_100);
  });

  it.each([["a/b"], [".."], ["."], ["%2F"], ["..%2F..%2Fadmin"], ["%252F"], ["x\\y"]])(
    "refuses the path parameter %j before any request",
    async (id) => {
      await expect(
        connector.callTool(target(), { credential: KEY }, "get_item", { id }, callOptions()),
      ).rejects.toMatchObject({ reason: "INVALID_ARGUMENTS" });
      expect(fake.requests).toHaveLength(0);
    },
  );

  it("refuses an operation the owner did not define", async () => {
    await expect(
      connector.callTool(target(), { credential: KEY }, "delete_everything", {}, callOptions()),
    ).rejects.toMatchObject({ reason: "UNKNOWN_TOOL" });
    expect(fake.requests).toHaveLength(0);
  });

  it("[C25] the credential appears in no result or log", async () => {
    const result = await connector.callTool(
      target(),
      { credential: KEY },
      "get_item",
      { id: "a b" },
      callOptions(),
    );
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(t.logs()).not.toContain(KEY);
  });
});
