// A model provider on 127.0.0.1 that speaks the Anthropic and OpenAI wire formats (JSON and
// SSE, usage as the real APIs send it, error statuses), records every request it receives, and
// misbehaves on demand. The scenario is chosen by the request's `model`:
//   cache, multi-delta, cut (stream/body cut mid-way), hang (stream that never ends),
//   slow (headers after 4 s), error-400 / error-401 / error-429 / error-500 / error-529.
// Every response also carries `x-echo-auth` with the credential it received, so tests can
// prove the gateway filters response headers.
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  anthropicEvents,
  anthropicMessage,
  chatCompletion,
  chatEvents,
  response,
  responseEvents,
  type Usage,
} from "./wire-formats.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The body exactly as it arrived. */
  raw: string;
}

export interface ScriptedProvider {
  url: string;
  requests: RecordedRequest[];
  /** Usage of every call the provider answered successfully (what it would bill). */
  billed: Usage[];
  /** Upstream connections closed before the provider finished writing. */
  abortedByClient: number;
  outputTokens: number;
  close(): Promise<void>;
}

const DEFAULT_OUTPUT = 20;

/** Input tokens the provider reports: 1 per 4 bytes of the prompt text fields. */
export function scriptedInputTokens(body: Record<string, unknown>): number {
  const prompt = JSON.stringify([
    body.system ?? null,
    body.messages ?? null,
    body.input ?? null,
    body.instructions ?? null,
  ]);
  return Math.ceil(Buffer.byteLength(prompt) / 4);
}

function errorBody(path: string, status: number, echo: string) {
  const type =
    status === 401
      ? "authentication_error"
      : status === 429
        ? "rate_limit_error"
        : status >= 500
          ? "api_error"
          : "invalid_request_error";
  const message =
    status === 401
      ? `Incorrect API key provided: ${echo}`
      : `scripted ${status}: something went wrong (key ${echo})`;
  return path.startsWith("/v1/messages")
    ? { type: "error", error: { type, message } }
    : { error: { message, type, param: null, code: type } };
}

export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const state: ScriptedProvider = {
    url: "",
    requests: [],
    billed: [],
    abortedByClient: 0,
    outputTokens: DEFAULT_OUTPUT,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw || "{}") as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      state.requests.push({ method: req.method ?? "", path, headers: req.headers, body, raw });
      const echo = String(req.headers["x-api-key"] ?? req.headers.authorization ?? "");
      const model = typeof body.model === "string" ? body.model : "scripted";
      const maxOut = Number(
        body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens ?? Infinity,
      );
      // OpenAI chat `n`: that many completions, each up to the output bound.
      const n = path === "/v1/chat/completions" && Number.isInteger(body.n) ? Number(body.n) : 1;
      const u: Usage = {
        input: scriptedInputTokens(body),
        output: Math.min(state.outputTokens, maxOut) * n,
        cacheRead: model === "cache" ? 7 : 0,
        cacheWrite: model === "cache" && path.startsWith("/v1/messages") ? 3 : 0,
      };
      const common = {
        "x-echo-auth": echo,
        "request-id": "req_scripted",
        "x-ratelimit-remaining-tokens": "999",
      };
      const errorMatch = /^error-(\d{3})$/.exec(model);
      if (errorMatch) {
        const status = Number(errorMatch[1]);
        res.writeHead(status, {
          ...common,
          "content-type": "application/json",
          ...(status === 429 ? { "retry-after": "7" } : {}),
        });
        res.end(JSON.stringify(errorBody(path, status, echo)));
        return;
      }
      if (path === "/v1/messages/count_tokens") {
        res
          .writeHead(200, { ...common, "content-type": "application/json" })
          .end(JSON.stringify({ input_tokens: u.input }));
        return;
      }
      const stream = body.stream === true;
      const includeUsage =
        (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      let parts: string[];
      if (path === "/v1/messages")
        parts = stream
          ? anthropicEvents(model, u, model === "multi-delta" ? 2 : 0)
          : [JSON.stringify(anthropicMessage(model, u))];
      else if (path === "/v1/chat/completions")
        parts = stream
          ? chatEvents(model, u, includeUsage)
          : [JSON.stringify(chatCompletion(model, u, n))];
      else if (path === "/v1/responses")
        parts = stream ? responseEvents(model, u) : [JSON.stringify(response(model, u))];
      else {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end('{"error":{"message":"not found"}}');
        return;
      }
      void respond(
        res,
        parts,
        stream,
        model,
        () => state.billed.push(u),
        () => (state.abortedByClient += 1),
        common,
      );
    });
  });
  async function respond(
    res: ServerResponse,
    parts: string[],
    stream: boolean,
    model: string,
    billed: () => void,
    aborted: () => void,
    common: Record<string, string>,
  ) {
    let finished = false;
    res.on("close", () => {
      if (!finished) aborted();
    });
    if (model === "slow") await new Promise((r) => setTimeout(r, 4000));
    if (res.destroyed) return;
    res.writeHead(200, {
      ...common,
      "content-type": stream ? "text/event-stream; charset=utf-8" : "application/json",
    });
    if (model === "cut") {
      // Half of the events (or half of the JSON), then the connection drops: no usage arrives.
      const text = parts.join("");
      res.write(
        stream
          ? parts.slice(0, Math.ceil(parts.length / 2)).join("")
          : text.slice(0, text.length / 2),
      );
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (model === "hang") {
      res.write(parts.slice(0, 3).join(""));
      return; // never ends; the test disconnects its client
    }
    for (const part of parts) {
      if (!res.write(part)) await new Promise((r) => res.once("drain", r));
    }
    finished = true;
    billed();
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
