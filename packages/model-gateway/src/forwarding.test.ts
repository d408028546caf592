// [C14] [C16] [C17] the gateway forwards only what the agent loop needs: an allowlist of
// headers (anthropic-beta only from the operator's list), bodies re-serialised after a strict
// parse (duplicate keys refused), no provider-side tools, remote MCP servers, file / container /
// URL references or stored state unless the operator allows them, and OpenAI `n` reserved once
// per choice. Driven with the official SDKs against the scripted provider on loopback.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect } from "vitest";
import { seedRun, startTestGateway, type TestGateway } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

const messages = [{ role: "user" as const, content: "Summarise the open issues." }];

interface Refusal {
  reason?: string;
  message?: string;
}

const test = gatewayTest()
  /** Same database and keyring, with an operator allowlist. */
  .extend("open", { scope: "file" }, async ({ testDatabase, gw }, { onCleanup }) => {
    const open = await startTestGateway(testDatabase, {
      keyring: gw.keyring,
      forwarding: {
        anthropicBetas: ["mcp-client-2025-04-04", "files-api-2025-04-14"],
        allowedProviderTools: ["web_search"],
      },
    });
    onCleanup(() => open.close());
    return open;
  })
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      (kind: "ANTHROPIC" | "OPENAI", budget = 100_000) =>
        seedRun(db, gw.keyring, {
          kind,
          baseUrl: provider.url,
          providerKey: "sk-forwarding-key-0123456789",
          budget,
        }),
  )
  .extend(
    "anthropic",
    { scope: "file" },
    ({ gw }) =>
      (token: string, via: TestGateway = gw) =>
        new Anthropic({ apiKey: token, baseURL: via.url, maxRetries: 0 }),
  )
  .extend(
    "openai",
    { scope: "file" },
    ({ gw }) =>
      (token: string, via: TestGateway = gw) =>
        new OpenAI({ apiKey: token, baseURL: `${via.url}/v1`, maxRetries: 0 }),
  )
  /** The call fails with a 400 of `reason`, nothing reached the provider and nothing was charged. */
  .extend(
    "expectRefused",
    { scope: "file" },
    ({ db, gw, open, provider }) =>
      async (runId: string, call: Promise<unknown>, reason: string) => {
        const before = provider.requests.length;
        const error = (await call.then(
          () => null,
          (e: unknown) => e,
        )) as { status?: number; error?: Refusal & { error?: Refusal } } | null;
        // The Anthropic SDK keeps the whole body in `error`, the OpenAI SDK its `error` member.
        const refusal = error?.error?.error ?? error?.error;
        expect(error?.status).toBe(400);
        expect(refusal?.reason).toBe(reason);
        expect(provider.requests.length).toBe(before);
        await gw.gateway.settled();
        await open.gateway.settled();
        const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
        expect([row.tokensUsed, row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0, 0]);
        return refusal?.message ?? "";
      },
  )
  .extend(
    "post",
    { scope: "file" },
    ({ gw }) =>
      async (path: string, token: string, body: string, via: TestGateway = gw) => {
        const res = await fetch(`${via.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body,
        });
        return { status: res.status, json: (await res.json()) as { error?: { reason?: string } } };
      },
  );

describe("headers", () => {
  const upstreamAllowed = new Set([
    "host",
    "connection",
    "content-length",
    "content-type",
    "accept",
    "accept-encoding",
    "anthropic-version",
    "anthropic-beta",
    "x-api-key",
    "authorization",
  ]);

  test("[C14] only allowlisted headers reach the provider, whatever the SDK or the caller adds", async ({
    provider,
    newRun,
    anthropic,
    openai,
  }) => {
    const a = await newRun("ANTHROPIC");
    await anthropic(a.token).messages.create(
      { model: "scripted", max_tokens: 10, messages },
      {
        headers: {
          "x-forwarded-for": "10.0.0.1",
          "openai-organization": "org-evil",
          "x-stainless-helper": "evil",
          "idempotency-key": "k",
        },
      },
    );
    const up = provider.requests.at(-1)!;
    expect(Object.keys(up.headers).filter((h) => !upstreamAllowed.has(h))).toEqual([]);
    expect(up.headers["anthropic-beta"]).toBeUndefined();
    const o = await newRun("OPENAI");
    await openai(o.token).chat.completions.create(
      { model: "scripted", messages },
      { headers: { "openai-beta": "assistants=v2", "openai-project": "proj-evil" } },
    );
    const up2 = provider.requests.at(-1)!;
    expect(Object.keys(up2.headers).filter((h) => !upstreamAllowed.has(h))).toEqual([]);
  });

  test("[C14] an anthropic-beta value the operator did not list is refused with 400 ANTHROPIC_BETA_NOT_ALLOWED", async ({
    open,
    newRun,
    anthropic,
    expectRefused,
  }) => {
    const a = await newRun("ANTHROPIC");
    const message = await expectRefused(
      a.runId,
      anthropic(a.token).beta.messages.create({
        model: "scripted",
        max_tokens: 10,
        messages,
        betas: ["files-api-2025-04-14"],
      }),
      "ANTHROPIC_BETA_NOT_ALLOWED",
    );
    expect(message).toContain("GATEWAY_ANTHROPIC_BETA");
    // Listed on the open gateway, but mixed with an unlisted one: still refused as a whole.
    await expectRefused(
      a.runId,
      anthropic(a.token, open).beta.messages.create({
        model: "scripted",
        max_tokens: 10,
        messages,
        betas: ["files-api-2025-04-14", "code-execution-2025-08-25"],
      }),
      "ANTHROPIC_BETA_NOT_ALLOWED",
    );
  });

  test("[C14] a listed anthropic-beta value is forwarded exactly", async ({
    open,
    provider,
    newRun,
    anthropic,
  }) => {
    const a = await newRun("ANTHROPIC");
    await anthropic(a.token, open).beta.messages.create({
      model: "scripted",
      max_tokens: 10,
      messages,
      betas: ["files-api-2025-04-14"],
    });
    expect(provider.requests.at(-1)!.headers["anthropic-beta"]).toBe("files-api-2025-04-14");
  });
});

describe("bodies", () => {
  const toolsTwice =
    '{"model":"scripted","max_tokens":10,"messages":[{"role":"user","content":"x"}],' +
    '"tools":[],"tools":[{"type":"web_search_20250305","name":"web_search"}]}';

  const bodies: Array<[string, string]> = [
    ["a repeated top-level key", toolsTwice],
    ["a repeated key spelled with an escape", toolsTwice.replace('"tools":[{', '"\\u0074ools":[{')],
    [
      "a repeated key inside a message",
      '{"model":"scripted","max_tokens":10,"messages":[{"role":"user","role":"system","content":"x"}]}',
    ],
  ];
  for (const [name, body] of bodies) {
    test(`[C16] ${name} is refused with 400 DUPLICATE_JSON_KEY before any upstream call`, async ({
      provider,
      newRun,
      post,
    }) => {
      const a = await newRun("ANTHROPIC");
      const before = provider.requests.length;
      const res = await post("/v1/messages", a.token, body);
      expect(res.status).toBe(400);
      expect(res.json.error?.reason).toBe("DUPLICATE_JSON_KEY");
      expect(provider.requests.length).toBe(before);
    });
  }

  test("[C16] the provider gets the gateway's serialisation of the parsed body, not the client's bytes", async ({
    provider,
    newRun,
    post,
  }) => {
    const a = await newRun("ANTHROPIC");
    const sent =
      '{\n  "model": "scripted",\n  "max_tokens": 10,\n  "messages": [{"role": "\\u0075ser", "content": "caf\\u00e9 1e2"}],\n  "temperature": 1E0\n}';
    const res = await post("/v1/messages", a.token, sent);
    expect(res.status).toBe(200);
    expect(provider.requests.at(-1)!.raw).toBe(JSON.stringify(JSON.parse(sent)));
  });

  test("[C16] a body that is not UTF-8 is refused with 400 INVALID_JSON", async ({
    gw,
    provider,
    newRun,
  }) => {
    const a = await newRun("ANTHROPIC");
    const before = provider.requests.length;
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": a.token, "content-type": "application/json" },
      body: Buffer.concat([
        Buffer.from('{"model":"scripted","max_tokens":10,"messages":[{"role":"user","content":"'),
        Buffer.from([0xff, 0xfe, 0xff]),
        Buffer.from('"}]}'),
      ]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { reason: string } }).error.reason).toBe("INVALID_JSON");
    expect(provider.requests.length).toBe(before);
  });
});

describe("provider-side capabilities (Anthropic SDK)", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "web search",
      { tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 1 }] },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "web fetch",
      { tools: [{ type: "web_fetch_20250910", name: "web_fetch" }] },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "code execution",
      { tools: [{ type: "code_execution_20250825", name: "code_execution" }] },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "computer use",
      {
        tools: [
          {
            type: "computer_20250124",
            name: "computer",
            display_width_px: 1024,
            display_height_px: 768,
          },
        ],
      },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "a remote MCP server",
      { mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "x" }] },
      "REMOTE_MCP_NOT_ALLOWED",
    ],
    [
      "a file reference",
      {
        messages: [
          {
            role: "user",
            content: [
              {
                type: "document",
                source: { type: "file", file_id: "file_011CNha8iCJcU1wXNR6q4V8w" },
              },
              { type: "text", text: "Summarise it." },
            ],
          },
        ],
      },
      "FILE_REFERENCE_NOT_ALLOWED",
    ],
    ["a container", { container: "container_011CNha8" }, "FILE_REFERENCE_NOT_ALLOWED"],
    [
      "an image the provider would fetch from a URL (inside a tool result)",
      {
        messages: [
          { role: "user", content: "x" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "shell", input: { file_id: 1 } }],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [
                  { type: "image", source: { type: "url", url: "https://x.example/a.png" } },
                ],
              },
            ],
          },
        ],
      },
      "URL_SOURCE_NOT_ALLOWED",
    ],
  ];
  for (const [name, extra, reason] of cases) {
    test(`[C14] ${name} is refused with 400 ${reason}, nothing forwarded or charged`, async ({
      newRun,
      anthropic,
      expectRefused,
    }) => {
      const a = await newRun("ANTHROPIC");
      const params = { model: "scripted", max_tokens: 10, messages, ...extra };
      await expectRefused(
        a.runId,
        anthropic(a.token).messages.create(params as Anthropic.MessageCreateParamsNonStreaming),
        reason,
      );
    });
  }

  test("[C14] remote MCP stays refused when only its beta header is allowed", async ({
    open,
    newRun,
    anthropic,
    expectRefused,
  }) => {
    const a = await newRun("ANTHROPIC");
    await expectRefused(
      a.runId,
      anthropic(a.token, open).beta.messages.create({
        model: "scripted",
        max_tokens: 10,
        messages,
        betas: ["mcp-client-2025-04-04"],
        mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "x" }],
      }),
      "REMOTE_MCP_NOT_ALLOWED",
    );
  });

  test("[C14] client-side tools pass, and an operator-allowed server tool reaches the provider (others still refused)", async ({
    open,
    provider,
    newRun,
    anthropic,
    expectRefused,
  }) => {
    const a = await newRun("ANTHROPIC");
    const shell = {
      name: "shell",
      description: "Run a command",
      input_schema: { type: "object" as const, properties: { file_id: { type: "string" } } },
    };
    await anthropic(a.token).messages.create({
      model: "scripted",
      max_tokens: 10,
      messages,
      tools: [shell],
    });
    expect(provider.requests.at(-1)!.body.tools).toEqual([shell]);
    const search = { type: "web_search_20250305" as const, name: "web_search" as const };
    await anthropic(a.token, open).messages.create({
      model: "scripted",
      max_tokens: 10,
      messages,
      tools: [shell, search],
    });
    expect(provider.requests.at(-1)!.body.tools).toEqual([shell, search]);
    const b = await newRun("ANTHROPIC");
    await expectRefused(
      b.runId,
      anthropic(b.token, open).messages.create({
        model: "scripted",
        max_tokens: 10,
        messages,
        tools: [{ type: "web_fetch_20250910", name: "web_fetch" }],
      } as Anthropic.MessageCreateParamsNonStreaming),
      "PROVIDER_TOOL_NOT_ALLOWED",
    );
  });
});

describe("provider-side capabilities (OpenAI SDK)", () => {
  const responses: Array<[string, Record<string, unknown>, string]> = [
    ["web search", { tools: [{ type: "web_search" }] }, "PROVIDER_TOOL_NOT_ALLOWED"],
    [
      "code interpreter",
      { tools: [{ type: "code_interpreter", container: { type: "auto" } }] },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "computer use",
      {
        tools: [
          {
            type: "computer_use_preview",
            display_width: 1024,
            display_height: 768,
            environment: "linux",
          },
        ],
      },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    [
      "a remote MCP server",
      {
        tools: [
          {
            type: "mcp",
            server_label: "x",
            server_url: "https://mcp.example.com",
            require_approval: "never",
          },
        ],
      },
      "REMOTE_MCP_NOT_ALLOWED",
    ],
    [
      "file search",
      { tools: [{ type: "file_search", vector_store_ids: ["vs_1"] }] },
      "PROVIDER_TOOL_NOT_ALLOWED",
    ],
    ["previous_response_id", { previous_response_id: "resp_123" }, "STORED_STATE_NOT_ALLOWED"],
    ["a stored conversation", { conversation: "conv_123" }, "STORED_STATE_NOT_ALLOWED"],
    ["a stored prompt", { prompt: { id: "pmpt_123" } }, "STORED_STATE_NOT_ALLOWED"],
    [
      "a file reference",
      {
        input: [
          {
            role: "user",
            content: [
              { type: "input_file", file_id: "file-abc" },
              { type: "input_text", text: "Summarise it." },
            ],
          },
        ],
      },
      "FILE_REFERENCE_NOT_ALLOWED",
    ],
    [
      "a stored item reference",
      { input: [{ type: "item_reference", id: "msg_123" }] },
      "STORED_STATE_NOT_ALLOWED",
    ],
  ];
  for (const [name, extra, reason] of responses) {
    test(`[C14] responses: ${name} is refused with 400 ${reason}`, async ({
      newRun,
      openai,
      expectRefused,
    }) => {
      const o = await newRun("OPENAI");
      const params = { model: "scripted", input: "Summarise.", ...extra };
      await expectRefused(
        o.runId,
        openai(o.token).responses.create(
          params as OpenAI.Responses.ResponseCreateParamsNonStreaming,
        ),
        reason,
      );
    });
  }

  const chat: Array<[string, Record<string, unknown>, string]> = [
    ["web_search_options", { web_search_options: {} }, "PROVIDER_TOOL_NOT_ALLOWED"],
    [
      "an image URL",
      {
        messages: [
          {
            role: "user",
            content: [{ type: "image_url", image_url: { url: "https://x.example/a.png" } }],
          },
        ],
      },
      "URL_SOURCE_NOT_ALLOWED",
    ],
    [
      "a file reference",
      {
        messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-abc" } }] }],
      },
      "FILE_REFERENCE_NOT_ALLOWED",
    ],
  ];
  for (const [name, extra, reason] of chat) {
    test(`[C14] chat completions: ${name} is refused with 400 ${reason}`, async ({
      newRun,
      openai,
      expectRefused,
    }) => {
      const o = await newRun("OPENAI");
      const params = { model: "scripted", messages, ...extra };
      await expectRefused(
        o.runId,
        openai(o.token).chat.completions.create(
          params as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        ),
        reason,
      );
    });
  }

  test("[C14] function tools and inline data pass; an allowed web search reaches the provider", async ({
    open,
    provider,
    newRun,
    openai,
  }) => {
    const o = await newRun("OPENAI");
    const fn = {
      type: "function" as const,
      function: { name: "shell", parameters: { type: "object", properties: {} } },
    };
    const inline = { type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } };
    await openai(o.token).chat.completions.create({
      model: "scripted",
      messages: [{ role: "user", content: [inline] }],
      tools: [fn],
    });
    expect(provider.requests.at(-1)!.body.tools).toEqual([fn]);
    await openai(o.token, open).responses.create({
      model: "scripted",
      input: "Search.",
      tools: [{ type: "web_search" }],
    });
    expect(provider.requests.at(-1)!.body.tools).toEqual([{ type: "web_search" }]);
  });
});

describe("OpenAI n", () => {
  test("[C17] n: 10 against a 5,000-token budget reserves the output bound once per choice and stays within the budget", async ({
    db,
    gw,
    provider,
    newRun,
    openai,
  }) => {
    const o = await newRun("OPENAI", 5000);
    const previous = provider.outputTokens;
    provider.outputTokens = 1000;
    try {
      const res = await openai(o.token).chat.completions.create({
        model: "scripted",
        messages,
        n: 10,
      });
      expect(res.choices).toHaveLength(10);
    } finally {
      provider.outputTokens = previous;
    }
    const sent = provider.requests.at(-1)!;
    const perChoice = sent.body.max_completion_tokens as number;
    expect(perChoice * 10).toBeLessThanOrEqual(5000);
    await gw.gateway.settled();
    const row = await db.run.findUniqueOrThrow({ where: { id: o.runId } });
    expect(row.tokensUsed).toBeLessThanOrEqual(5000);
    expect(row.outputTokens).toBe(perChoice * 10);
  });

  test("[C17] a cut answer with n: 4 is charged four output bounds", async ({
    db,
    gw,
    newRun,
    post,
  }) => {
    const o = await newRun("OPENAI");
    const body = { model: "cut", max_tokens: 300, messages, n: 4 };
    const res = await post("/v1/chat/completions", o.token, JSON.stringify(body));
    expect(res.status).toBe(502);
    await gw.gateway.settled();
    const row = await db.run.findUniqueOrThrow({ where: { id: o.runId } });
    expect(row.tokensUsed).toBe(Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 3) + 4 * 300);
  });

  test("[C17] more choices than the budget has tokens left is refused with 400 CHOICES_EXCEED_BUDGET", async ({
    newRun,
    openai,
    expectRefused,
  }) => {
    const o = await newRun("OPENAI", 60);
    await expectRefused(
      o.runId,
      openai(o.token).chat.completions.create({ model: "scripted", messages, n: 50 }),
      "CHOICES_EXCEED_BUDGET",
    );
  });

  for (const n of [0, 1.5, 129]) {
    test(`[C17] n: ${n} is refused with 400 INVALID_N`, async ({
      newRun,
      openai,
      expectRefused,
    }) => {
      const o = await newRun("OPENAI");
      await expectRefused(
        o.runId,
        openai(o.token).chat.completions.create({ model: "scripted", messages, n }),
        "INVALID_N",
      );
    });
  }
});
