// The model provider for scenario tests: a loopback server speaking Anthropic's Messages API
// (non-streaming JSON with tool_use blocks and usage, as the real API sends it). Each request
// is answered by the next step of the scenario's script; steps are async functions, so a
// scenario can act (revoke a grant, kill a worker) between two model turns. Every request is
// recorded, headers included, so tests can check what reached the provider.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    messages?: Array<{ role: string; content: unknown }>;
    system?: unknown;
    tools?: Array<{ name: string }>;
    max_tokens?: number;
  };
}

export type ModelTurn =
  | { text: string; usage?: { input: number; output: number } }
  | { tool: string; input: Record<string, unknown>; usage?: { input: number; output: number } }
  | { hang: true }
  /** The provider refuses the request with this HTTP status (an Anthropic error body). */
  | { status: number };

export type ModelStep = (request: ModelRequest, index: number) => ModelTurn | Promise<ModelTurn>;

export interface ModelServer {
  url: string;
  requests: ModelRequest[];
  script(steps: ModelStep[]): void;
  close(): Promise<void>;
}

export function lastToolResult(request: ModelRequest): string {
  const last = request.body.messages?.at(-1);
  const blocks = Array.isArray(last?.content)
    ? (last.content as Array<{ type: string; content?: unknown }>)
    : [];
  const result = blocks.find((b) => b.type === "tool_result");
  return typeof result?.content === "string"
    ? result.content
    : JSON.stringify(result?.content ?? "");
}

export async function startModelServer(): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  let steps: ModelStep[] = [];
  let answered = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: ModelRequest = {
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString() || "{}") as ModelRequest["body"],
      };
      requests.push(request);
      if (req.method !== "POST" || request.path !== "/v1/messages") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end('{"type":"error","error":{"type":"not_found_error","message":"Not found"}}');
        return;
      }
      const index = answered++;
      const step = steps[Math.min(index, steps.length - 1)];
      void Promise.resolve(step ? step(request, index) : { text: "script exhausted" }).then(
        (turn) => {
          if ("hang" in turn) return;
          if ("status" in turn) {
            res.writeHead(turn.status, { "content-type": "application/json" }).end(
              JSON.stringify({
                type: "error",
                error: { type: "invalid_request_error", message: "scripted refusal" },
              }),
            );
            return;
          }
          const usage = turn.usage ?? { input: 100, output: 20 };
          const content =
            "tool" in turn
              ? [{ type: "tool_use", id: `toolu_${index}`, name: turn.tool, input: turn.input }]
              : [{ type: "text", text: turn.text }];
          res
            .writeHead(200, { "content-type": "application/json", "request-id": `req_${index}` })
            .end(
              JSON.stringify({
                id: `msg_${index}`,
                type: "message",
                role: "assistant",
                model: "claude-test",
                content,
                stop_reason: "tool" in turn ? "tool_use" : "end_turn",
                stop_sequence: null,
                usage: {
                  input_tokens: usage.input,
                  output_tokens: usage.output,
                  cache_creation_input_tokens: 0,
                  cache_read_input_tokens: 0,
                },
              }),
            );
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      steps = next;
      answered = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
