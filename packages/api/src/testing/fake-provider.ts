// A loopback model provider that answers `GET /v1/models` in the providers' real wire formats:
// Anthropic checks `x-api-key` and `anthropic-version`, OpenAI `Authorization: Bearer`. A wrong
// key gets each provider's real error body — OpenAI's echoes part of the key, so a check that
// quoted the body would leak it.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeProvider {
  url: string;
  /** The key the provider accepts. */
  key: string;
  requests: Array<{ method: string; path: string; headers: IncomingMessage["headers"] }>;
  close(): Promise<void>;
}

const anthropicModels = {
  data: [
    {
      type: "model",
      id: "claude-sonnet-4-5",
      display_name: "Claude Sonnet 4.5",
      created_at: "2025-09-29T00:00:00Z",
    },
    {
      type: "model",
      id: "claude-haiku-4-5",
      display_name: "Claude Haiku 4.5",
      created_at: "2025-10-15T00:00:00Z",
    },
  ],
  has_more: false,
  first_id: "claude-sonnet-4-5",
  last_id: "claude-haiku-4-5",
};

const openaiModels = {
  object: "list",
  data: [
    { id: "gpt-4o", object: "model", created: 1715367049, owned_by: "system" },
    { id: "gpt-4o-mini", object: "model", created: 1721172741, owned_by: "system" },
  ],
};

function refusal(kind: "ANTHROPIC" | "OPENAI", presented: string) {
  return kind === "ANTHROPIC"
    ? {
        type: "error",
        error: { type: "authentication_error", message: "invalid x-api-key" },
        request_id: "req_011CTest",
      }
    : {
        error: {
          message: `Incorrect API key provided: ${presented.slice(0, 12)}**********. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      };
}

export async function startFakeProvider(
  kind: "ANTHROPIC" | "OPENAI",
  key: string,
): Promise<FakeProvider> {
  const requests: FakeProvider["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    res.setHeader("content-type", "application/json");
    if (req.method !== "GET" || req.url !== "/v1/models") {
      res.statusCode = 404;
      return res.end(JSON.stringify({ error: { message: "Not found" } }));
    }
    const presented =
      kind === "ANTHROPIC"
        ? String(req.headers["x-api-key"] ?? "")
        : String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    const versioned = kind === "OPENAI" || typeof req.headers["anthropic-version"] === "string";
    if (presented !== key || !versioned) {
      res.statusCode = 401;
      return res.end(JSON.stringify(refusal(kind, presented)));
    }
    res.end(JSON.stringify(kind === "ANTHROPIC" ? anthropicModels : openaiModels));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
