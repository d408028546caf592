import { afterEach, describe, expect, it } from "vitest";
import { harness, providers, type Harness } from "./testing/harness.ts";

let current: Harness | undefined;
afterEach(async () => {
  await current?.model.close();
  current = undefined;
});

/** The tool results the model received in request `index`, in a provider-neutral shape. */
function toolResults(
  h: Harness,
  index: number,
): Array<{ id: string; content: string; isError?: boolean }> {
  const body = h.model.requests[index]?.body as { messages: Array<Record<string, unknown>> };
  return body.messages.flatMap((m) => {
    if (m.role === "tool") return [{ id: String(m.tool_call_id), content: String(m.content) }];
    if (m.role === "user" && Array.isArray(m.content)) {
      return (m.content as Array<Record<string, unknown>>)
        .filter((b) => b.type === "tool_result")
        .map((b) => ({
          id: String(b.tool_use_id),
          content: String(b.content),
          isError: Boolean(b.is_error),
        }));
    }
    return [];
  });
}

describe.each(providers)("runAgent over %s", (provider) => {
  it("runs shell, read_file and a broker tool over several turns and ends with the final answer", async () => {
    const h = (current = await harness(
      provider,
      [
        {
          reply: {
            text: "Let me look.",
            toolCalls: [
              { name: "shell", args: { command: "npm test" } },
              { name: "read_file", args: { path: "src/a.ts" } },
            ],
          },
        },
        { reply: { toolCalls: [{ name: "mcp__everything__echo", args: { message: "hi" } }] } },
        { reply: { text: "Fixed the test.", usage: { input: 50, output: 5 } } },
      ],
      { "src/a.ts": "export const a = 1;" },
    ));
    // Events are live: the call is in the transcript before the command has finished.
    const seenDuringExec: string[] = [];
    h.sandbox.execHandler = (command) => {
      seenDuringExec.push(h.sink.types().at(-1) ?? "");
      return {
        exitCode: 0,
        stdout: `ran: ${command}`,
        stderr: "",
        truncated: false,
        timedOut: false,
      };
    };
    const result = await h.run();
    expect(seenDuringExec).toEqual(["tool_call"]);

    expect(result).toEqual({
      outcome: "succeeded",
      summary: "Fixed the test.",
      usage: { inputTokens: 250, outputTokens: 45 },
    });
    expect(h.sandbox.commands).toEqual(["npm test"]);
    expect(h.broker.calls).toEqual([
      { toolName: "echo", args: { message: "hi" }, connectionId: "conn-1" },
    ]);
    expect(h.sink.types()).toEqual([
      "agent_started",
      "model_turn",
      "tool_call",
      "tool_result",
      "tool_call",
      "tool_result",
      "model_turn",
      "tool_call",
      "tool_result",
      "model_turn",
      "final_answer",
      "agent_finished",
    ]);
    expect(h.sink.events.at(-2)?.payload).toEqual({ summary: "Fixed the test." });

    // The real SDKs went to the scripted gateway's provider paths with the run token as the
    // credential (Anthropic SDK 1.x sends it as a Bearer token, older ones as x-api-key).
    expect(h.model.requests).toHaveLength(3);
    for (const request of h.model.requests) {
      expect(request.path).toBe(provider === "anthropic" ? "/v1/messages" : "/v1/chat/completions");
      const credential =
        request.headers["x-api-key"] ?? request.headers.authorization?.replace(/^Bearer /, "");
      expect(credential).toBe(h.runToken);
      expect(request.body.model).toBe("scripted-model");
      // The token is a credential for the gateway only: the model never sees it.
      expect(JSON.stringify(request.body)).not.toContain(h.runToken);
    }

    // Tool definitions: the built-ins plus the plan tool with its snapshotted schema.
    const tools = h.model.requests[0]?.body.tools as Array<Record<string, unknown>>;
    const names = tools.map((t) =>
      provider === "anthropic" ? t.name : (t.function as { name: string }).name,
    );
    expect(names).toEqual([
      "shell",
      "read_file",
      "write_file",
      "list_files",
      "search_files",
      "mcp__everything__echo",
    ]);
    const echo = tools[5] as Record<string, unknown>;
    const schema =
      provider === "anthropic"
        ? echo.input_schema
        : (echo.function as { parameters: unknown }).parameters;
    expect(schema).toEqual({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });

    // The second request answers both calls of the first turn, in order, as tool output.
    const second = toolResults(h, 1);
    expect(second.map((r) => r.id)).toEqual(
      provider === "anthropic" ? ["toolu_1_0", "toolu_1_1"] : ["call_1_0", "call_1_1"],
    );
    expect(second[0]?.content).toContain("ran: npm test");
    expect(second[1]?.content).toContain("export const a = 1;");
    expect(toolResults(h, 2).at(-1)?.content).toContain("result of echo");
  });

  it("records a non-zero exit code as an error result and passes write_file, list_files and search_files through", async () => {
    const h = (current = await harness(provider, [
      {
        reply: {
          toolCalls: [
            { name: "shell", args: { command: "false" } },
            { name: "write_file", args: { path: "notes.md", content: "hello" } },
            { name: "list_files", args: { path: ".", recursive: true } },
            { name: "search_files", args: { pattern: "it's", path: "src" } },
          ],
        },
      },
      { reply: { text: "Done." } },
    ]));
    h.sandbox.execHandler = (command) => ({
      exitCode: command.startsWith("grep") ? 1 : 2,
      stdout: "",
      stderr: command.startsWith("grep") ? "" : "boom",
      truncated: false,
      timedOut: false,
    });
    const result = await h.run();
    expect(result.outcome).toBe("succeeded");
    expect(h.sandbox.files.get("notes.md")).toBe("hello");
    // The pattern is one shell word whatever quotes it holds.
    expect(h.sandbox.commands[1]).toBe(`grep -rnE -e 'it'\\''s' -- 'src'`);
    const results = h.sink.events.filter((e) => e.type === "tool_result").map((e) => e.payload);
    expect(results.map((r) => r.isError)).toEqual([true, false, false, false]);
    expect(String(results[0]?.content)).toContain("exit code: 2");
    expect(String(results[2]?.content)).toContain("notes.md");
    expect(String(results[3]?.content)).toContain("(no matches)");
  });

  it("the run's abort signal reaches every sandbox call of the built-in tools", async () => {
    const h = (current = await harness(
      provider,
      [
        {
          reply: {
            toolCalls: [
              { name: "shell", args: { command: "true" } },
              { name: "read_file", args: { path: "a.txt" } },
              { name: "write_file", args: { path: "b.txt", content: "b" } },
              { name: "list_files", args: { path: "." } },
              { name: "search_files", args: { pattern: "a" } },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
      { "a.txt": "a" },
    ));
    expect((await h.run()).outcome).toBe("succeeded");
    expect(h.sandbox.signals).toHaveLength(5);
    expect(h.sandbox.signals.some((s) => s === undefined || s.aborted)).toBe(false);
    // Cancelling the run aborts the signal each call was given, so the sandbox can kill it.
    h.cancel.abort();
    expect(h.sandbox.signals.every((s) => s?.aborted)).toBe(true);
  });
});
