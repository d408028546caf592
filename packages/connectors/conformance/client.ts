// A conformance-suite client built from the real connector code: the runner
// (`npx conformance client --command "tsx conformance/client.ts" --scenario X`) appends the
// server URL. Plain scenarios: list the tools and call each one through the MCP connector.
// auth/* scenarios: connect with beginMcpOAuth / finishMcpOAuth (the owner's flow, with a
// headless "browser" that follows the authorization redirect), then call tools through the
// connector with the OAuth access token, refreshing through refreshMcpOAuth if it expires.
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { createMcpConnector } from "../src/mcp/connector.ts";
import {
  beginMcpOAuth,
  finishMcpOAuth,
  refreshMcpOAuth,
  tokenExpiresAt,
  type McpOAuthOptions,
  type McpOAuthStore,
} from "../src/mcp/oauth.ts";
import { testDeps } from "../src/testing/outbound.ts";
import type { ConnectionSecrets, ConnectionTarget, JsonSchema } from "../src/types.ts";

const endpoint = process.argv.at(-1) ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const { deps, close } = testDeps();

function memoryStore(): McpOAuthStore & { state: Record<string, unknown> } {
  const state: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier?: string;
    discovery?: OAuthDiscoveryState;
  } = {};
  // auth/pre-registration: the runner hands over a client registered out of band.
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
    client_id?: string;
    client_secret?: string;
  };
  if (context.client_id)
    state.client = {
      client_id: context.client_id,
      ...(context.client_secret ? { client_secret: context.client_secret } : {}),
    };
  return {
    discoveryState: () => Promise.resolve(state.discovery),
    saveDiscoveryState: (d) => Promise.resolve(void (state.discovery = d)),
    state,
    clientInformation: () => Promise.resolve(state.client),
    saveClientInformation: (info) => Promise.resolve(void (state.client = info)),
    tokens: () => Promise.resolve(state.tokens),
    saveTokens: (tokens) => Promise.resolve(void (state.tokens = tokens)),
    codeVerifier: () => Promise.resolve(state.verifier),
    saveCodeVerifier: (v) => Promise.resolve(void (state.verifier = v)),
  };
}

/** Stands in for the owner's browser: the test authorization servers approve at once. */
async function authorizeHeadless(url: URL): Promise<string> {
  const response = await deps.outbound(url, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  const code = location ? new URL(location, url).searchParams.get("code") : null;
  if (!code) throw new Error("the authorization server did not redirect with a code");
  return code;
}

function sampleArgs(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = (schema.required ?? []) as string[];
  const sample: Record<string, unknown> = {};
  for (const name of required) {
    const type = properties[name]?.type;
    sample[name] =
      type === "number" || type === "integer"
        ? 1
        : type === "boolean"
          ? true
          : type === "object"
            ? {}
            : type === "array"
              ? []
              : "test";
  }
  return sample;
}

async function main(): Promise<void> {
  const target: ConnectionTarget = {
    connectionId: "conformance",
    workspaceId: "w",
    kind: "MCP",
    endpoint,
    authType: "NONE",
    authHeaderName: null,
    settings: {},
  };
  let secrets: ConnectionSecrets = { credential: null };
  if (scenario.startsWith("auth/")) {
    const store = memoryStore();
    const options: McpOAuthOptions = {
      store,
      clientName: "secondshift-conformance",
      redirectUrl: "http://localhost:3000/callback",
      // Used only where the authorization server supports client ID metadata documents (SEP-991).
      clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    };
    const url = await beginMcpOAuth(endpoint, options, deps.outbound);
    if (url) await finishMcpOAuth(endpoint, options, await authorizeHeadless(url), deps.outbound);
    const tokens = await store.tokens();
    target.authType = "OAUTH";
    secrets = {
      credential: null,
      oauth: {
        accessToken: tokens?.access_token ?? null,
        expiresAt: tokens ? tokenExpiresAt(tokens, Date.now()) : null,
        refresh: () => refreshMcpOAuth(endpoint, options, deps.outbound),
      },
    };
  }
  const connector = createMcpConnector(deps);
  const signal = new AbortController().signal;
  try {
    const tools = await connector.listTools(target, secrets, { signal, timeoutMs: 20_000 });
    for (const tool of tools) {
      const result = await connector.callTool(
        target,
        secrets,
        tool.name,
        sampleArgs(tool.inputSchema),
        {
          signal,
          timeoutMs: 20_000,
          maxResultBytes: 64 * 1024,
          scope: { repositoryFullName: null },
        },
      );
      console.log(
        `${tool.name}: ${result.isError ? "error" : "ok"} ${result.content
          .map((c) => c.text)
          .join(" ")
          .slice(0, 200)}`,
      );
    }
  } finally {
    await connector.close?.();
    await close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : "failed");
    process.exit(1);
  },
);
