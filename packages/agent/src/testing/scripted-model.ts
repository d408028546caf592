// A model server on 127.0.0.1 that speaks the Anthropic messages and OpenAI chat-completions
// wire formats, answering each request with the next step of a provider-neutral script and
// recording every request, so tests can drive the real SDKs and inspect what they sent.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  name: string;
  args?: unknown;
  /** Sent verbatim as OpenAI `arguments` (to test malformed JSON); Anthropic gets `args`. */
  rawArgs?: string;
}

/**
 * One answer of the script. A function step computes the answer from the request and stays at
 * the head of the script (it answers every later request); a sticky error does the same.
 */
export type ScriptStep =
  | {
      reply: {
        text?: string;
        toolCalls?: ScriptedToolCall[];
        usage?: { input: number; output: number };
      };
    }
  | { error: { status: number; body: unknown; sticky?: boolean } }
  | { hang: true }
  | ((request: RecordedRequest) => ScriptStep);

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ScriptedModel {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedModel(script: ScriptStep[]): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  let callNumber = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as Record<string, unknown>;
      const path = req.url ?? "";
      const request = { path, headers: req.headers, body };
      requests.push(request);
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      const format =
        path === "/v1/messages" ? "anthropic" : path === "/v1/chat/completions" ? "openai" : null;
      if (req.method !== "POST" || !format) return send(404, { error: { message: "not found" } });
      const head = script[0];
      let step: ScriptStep | undefined = head;
      while (typeof step === "function") step = step(request);
      if (!step) return send(500, { error: { type: "api_error", message: "script exhausted" } });
      // A function step and a sticky error answer every later request; other steps answer one.
      if (typeof head !== "function" && !("error" in step && step.error.sticky)) script.shift();
      if ("hang" in step) return; // never answers: the client must give up by itself
      if ("error" in step) return send(step.error.status, step.error.body);
      callNumber += 1;
      send(
        200,
        format === "anthropic"
          ? anthropicReply(step.reply, callNumber)
          : openaiReply(step.reply, callNumber),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Reply = Extract<ScriptStep, { reply: unknown }>["reply"];

function anthropicReply(reply: Reply, n: number) {
  const calls = reply.toolCalls ?? [];
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model: "scripted",
    content: [
      ...(reply.text ? [{ type: "text", text: reply.text }] : []),
      ...calls.map((call, i) => ({
        type: "tool_use",
        id: `toolu_${n}_${i}`,
        name: call.name,
        input: call.args ?? {},
      })),
    ],
    stop_reason: calls.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage?.input ?? 100,
      output_tokens: reply.usage?.output ?? 20,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function openaiReply(reply: Reply, n: number) {
  const calls = reply.toolCalls ?? [];
  const input = reply.usage?.input ?? 100;
  const output = reply.usage?.output ?? 20;
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "scripted",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(calls.length
            ? {
                tool_calls: calls.map((call, i) => ({
                  id: `call_${n}_${i}`,
                  type: "function",
                  function: {
                    name: call.name,
                    arguments: call.rawArgs ?? JSON.stringify(call.args ?? {}),
                  },
                })),
              }
            : {}),
        },
        finish_reason: calls.length ? "tool_calls" : "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}
