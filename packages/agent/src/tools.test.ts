import { sandboxOutOfMemory } from "@secondshift/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { harness, providers, type Harness } from "./testing/harness.ts";
import { BUILTIN_NAMES } from "./tools/builtin.ts";
import { MAX_TOOL_NAME, planToolNames } from "./tools/names.ts";
import type { PlanTool } from "./types.ts";

let current: Harness | undefined;
afterEach(async () => {
  await current?.model.close();
  current = undefined;
});

const toolResults = (h: Harness) =>
  h.sink.events.filter((e) => e.type === "tool_result").map((e) => e.payload);

describe.each(providers)("tool calls over %s", (provider) => {
  it("an unknown tool name, or a plan tool's raw name, is an error result for the model and never reaches the broker", async () => {
    const h = (current = await harness(provider, [
      {
        reply: {
          toolCalls: [
            { name: "delete_everything", args: {} },
            { name: "echo", args: { message: "unmapped" } },
            { name: "../../etc/passwd", args: {} },
          ],
        },
      },
      { reply: { text: "ok" } },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("succeeded");
    expect(h.broker.calls).toEqual([]);
    const results = toolResults(h);
    expect(results.map((r) => r.isError)).toEqual([true, true, true]);
    expect(String(results[0]?.content)).toContain('There is no tool named "delete_everything"');
    expect(String(results[0]?.content)).toContain("mcp__everything__echo");
    expect(String(results[2]?.content)).toContain('"etc_passwd"');
    expect(results.every((r) => r.name === null)).toBe(true);
  });

  it("a granted platform tool is offered under its exact name and called through the broker without a connection", async () => {
    const propose = {
      name: "secondshift_propose_comment",
      description: "Propose a comment.",
      inputSchema: { type: "object", properties: { number: { type: "integer" } } },
    };
    const h = (current = await harness(provider, [
      {
        reply: {
          toolCalls: [
            { name: "secondshift_propose_comment", args: { number: 3, body: "hi" } },
            { name: "secondshift_propose_issue", args: { title: "t", body: "b" } },
          ],
        },
      },
      { reply: { text: "ok" } },
    ]));
    const result = await h.run({ platformTools: [propose] });
    expect(result.outcome).toBe("succeeded");
    const started = h.sink.events.find((e) => e.type === "agent_started");
    expect(started?.payload.tools).toContain("secondshift_propose_comment");
    expect(started?.payload.tools).not.toContain("secondshift_propose_issue");
    // Only the granted one reaches the broker, by its exact name and with no connection.
    expect(h.broker.calls).toEqual([
      {
        toolName: "secondshift_propose_comment",
        args: { number: 3, body: "hi" },
        connectionId: undefined,
      },
    ]);
    expect(toolResults(h).map((r) => r.isError)).toEqual([false, true]);
  });

  it("arguments of the wrong type, missing or unexpected are error results, not crashes", async () => {
    const h = (current = await harness(provider, [
      {
        reply: {
          toolCalls: [
            { name: "read_file", args: { path: 42 } },
            { name: "write_file", args: { path: "a.txt" } },
            { name: "list_files", args: { path: ".", evil: true } },
            { name: "shell", args: { command: "ls", timeout_ms: -5 } },
          ],
        },
      },
      { reply: { text: "ok" } },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("succeeded");
    expect(h.sandbox.received).toEqual([]);
    const contents = toolResults(h).map((r) => String(r.content));
    expect(contents[0]).toContain('Argument "path" for read_file must be a string');
    expect(contents[1]).toContain('Missing required argument "content" for write_file');
    expect(contents[2]).toContain('Unexpected argument "evil" for list_files');
    expect(contents[3]).toContain('"timeout_ms" for shell must be a positive integer');
    // The model received each error as the answer to its call.
    expect(JSON.stringify(h.model.requests[1]?.body)).toContain("Missing required argument");
  });

  it("a tool result longer than the limit is cut, marked, and still delimited", async () => {
    const h = (current = await harness(
      provider,
      [
        { reply: { toolCalls: [{ name: "read_file", args: { path: "big.txt" } }] } },
        { reply: { text: "ok" } },
      ],
      {
        "big.txt": "x".repeat(5000),
      },
    ));
    await h.run({ limits: { maxToolResultChars: 100 } });
    const [first] = toolResults(h);
    expect(first?.truncated).toBe(true);
    expect(String(first?.content)).toContain("[truncated: 4900 more characters not shown]");
    expect(String(first?.content).endsWith("</untrusted-data>")).toBe(true);
    expect(String(first?.content).length).toBeLessThan(300);
  });

  it("a sandbox killed for memory ends the run with the sandbox's message (the named limit), instead of the model carrying on", async () => {
    const h = (current = await harness(provider, [
      { reply: { toolCalls: [{ name: "shell", args: { command: "make lots of files" } }] } },
      { reply: { text: "never reached" } },
    ]));
    h.sandbox.execHandler = () => {
      throw sandboxOutOfMemory(128 * 1024 * 1024);
    };
    const result = await h.run();
    expect(result.outcome).toBe("failed");
    expect(result.error).toMatch(
      /^The run used all of the sandbox's memory \(SANDBOX_MEMORY_MB = 128 MiB\)/,
    );
    expect(h.model.requests).toHaveLength(1);
  });
});

describe("tool calls over openai", () => {
  it("malformed JSON arguments are an error result for the model", async () => {
    const h = (current = await harness("openai", [
      {
        reply: {
          toolCalls: [
            { name: "shell", rawArgs: '{"command": "ls"' },
            { name: "shell", rawArgs: '["ls"]' },
          ],
        },
      },
      { reply: { text: "ok" } },
    ]));
    const result = await h.run();
    expect(result.outcome).toBe("succeeded");
    expect(h.sandbox.commands).toEqual([]);
    const contents = toolResults(h).map((r) => String(r.content));
    expect(contents[0]).toContain("The arguments for shell are not valid JSON");
    expect(contents[1]).toContain("must be a JSON object");
    const messages = h.model.requests[1]?.body.messages as Array<{ role: string; content: string }>;
    expect(
      messages.filter((m) => m.role === "tool").every((m) => m.content.startsWith("Error:")),
    ).toBe(true);
  });
});

describe("planToolNames", () => {
  const entry = (connectionId: string, tool: string, extra: Partial<PlanTool> = {}): PlanTool => ({
    connectionId,
    connectionKind: "mcp",
    tool,
    inputSchema: { type: "object" },
    mayChangeData: false,
    ...extra,
  });

  it("gives every plan tool a unique name valid for both providers, with a reverse map to the entry", () => {
    const plan = [
      entry("c1", "search"),
      entry("c2", "search"),
      entry("c3", "files/read file.v2", { label: "My Server (prod)" }),
      entry("c4", "t".repeat(200), { label: "l".repeat(80) }),
      entry("c5", "shell", { connectionKind: "" }),
    ];
    const names = planToolNames(plan, BUILTIN_NAMES);
    expect(names.size).toBe(plan.length);
    for (const name of names.keys()) {
      expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
      expect(BUILTIN_NAMES).not.toContain(name);
    }
    expect([...names.values()]).toEqual(plan);
    expect([...names.keys()][0]).toBe("mcp__search");
    expect([...names.keys()][2]).toBe("mcp__My_Server_prod__files_read_file_v2");
  });

  it("is deterministic, so the same plan gives the same names on every turn and retry", () => {
    const plan = [entry("c1", "search"), entry("c2", "search")];
    expect([...planToolNames(plan, BUILTIN_NAMES).keys()]).toEqual([
      ...planToolNames(plan, BUILTIN_NAMES).keys(),
    ]);
  });
});
