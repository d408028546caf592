// The outside world of the smoke test's end-to-end step, all on 127.0.0.1 and all borrowed from
// the packages' own test helpers: the scripted model provider (Anthropic's wire format), the
// real MCP server-everything, a git smart-HTTP server that demands the repository's token, and
// a webhook receiver. The stack's containers reach them over the host network.
import { startScriptedModel, type RecordedRequest } from "@secondshift/agent/testing";
import { startEverything } from "@secondshift/connectors/testing";
import { createTestRepo, startGitHttpServer } from "@secondshift/repo-sync/testing";
import { startReceiver } from "@secondshift/webhooks/testing";
import { randomBytes } from "node:crypto";

export interface Fakes {
  modelUrl: string;
  modelRequests: RecordedRequest[];
  mcpUrl: string;
  /** http clone URL of the repository; fetching needs `gitToken`. */
  cloneUrl: string;
  gitToken: string;
  /** Bodies of the webhook deliveries received, in order. */
  deliveries: () => string[];
  webhookUrl: string;
  close(): Promise<void>;
}

/** The last message's tool result, if the model is being told what its tool call returned. */
function toolResultOf(request: RecordedRequest): string | undefined {
  const messages = request.body.messages as Array<{ content: unknown }> | undefined;
  const content = messages?.at(-1)?.content;
  if (!Array.isArray(content)) return undefined;
  const result = (content as Array<{ type: string; content?: unknown }>).find(
    (block) => block.type === "tool_result",
  );
  return result ? JSON.stringify(result.content) : undefined;
}

/**
 * Each run: the model calls the MCP server's echo tool, then answers with what it echoed. The
 * answer depends only on the request, so concurrent runs on two workers cannot mix scripts.
 */
function echoThenFinish(request: RecordedRequest) {
  const echoed = toolResultOf(request);
  if (echoed !== undefined) return { reply: { text: `Echo answered ${echoed.slice(0, 200)}` } };
  const tools = (request.body.tools as Array<{ name: string }> | undefined) ?? [];
  const echo = tools.find((t) => t.name.endsWith("echo"));
  if (!echo) return { reply: { text: "no echo tool was offered" } };
  return {
    reply: { toolCalls: [{ name: echo.name, args: { message: "hello from the smoke test" } }] },
  };
}

export async function startFakes(files: Record<string, string>): Promise<Fakes> {
  const model = await startScriptedModel([echoThenFinish]);
  const mcp = await startEverything("streamableHttp");
  const repo = await createTestRepo();
  await repo.commit(files, "the job");
  const gitToken = `git-${randomBytes(12).toString("hex")}`;
  const git = await startGitHttpServer(`${repo.root}/srv`, {
    username: "x-access-token",
    token: gitToken,
  });
  const receiver = await startReceiver();
  return {
    modelUrl: model.baseUrl,
    modelRequests: model.requests,
    mcpUrl: mcp.url,
    cloneUrl: `http://127.0.0.1:${git.port}/acme/widgets.git`,
    gitToken,
    deliveries: () => receiver.received.map((r) => r.body),
    webhookUrl: `http://127.0.0.1:${receiver.port}/hooks/smoke`,
    async close() {
      await Promise.all([model.close(), mcp.stop(), git.close(), receiver.close()]);
    },
  };
}
