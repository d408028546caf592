// The GitHub connector: allowlisted read tools (tools.ts), the job's repository only
// (scope.ts), a token or a GitHub App installation token (app-auth.ts). Base URL = the
// owner's endpoint, so GitHub Enterprise Server (https://host/api/v3) works the same.
import type {
  CallOptions,
  ConnectionSecrets,
  ConnectionTarget,
  Connector,
  ToolResult,
} from "../types.ts";
import { startDeadline, type CallDeadline } from "../shared/deadline.ts";
import type { ConnectorDeps } from "../shared/deps.ts";
import { connectorError, outOfScope } from "../shared/errors.ts";
import { compactJson, readLimitFor, restRequest } from "../shared/rest.ts";
import { buildResult, textResult } from "../shared/result.ts";
import { buildUrl, nextPageFromLink, parseBaseUrl } from "../shared/url.ts";
import { mintInstallationToken, RunTokenCache } from "./app-auth.ts";
import { resolveRepository, type ScopedRepository } from "./scope.ts";
import { githubTools, githubToolsByName, type GithubRequestPlan } from "./tools.ts";
import { summariseRunLogs } from "./run-logs.ts";

export const DEFAULT_GITHUB_API = "https://api.github.com";

export function createGithubConnector(deps: ConnectorDeps): Connector {
  const now = deps.now ?? Date.now;
  const runTokens = new RunTokenCache();
  const baseHeaders = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    "user-agent": `${deps.clientInfo.name}/${deps.clientInfo.version}`,
  };

  async function authorization(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    repo: ScopedRepository,
    baseUrl: URL,
    runId: string | undefined,
    deadline: CallDeadline,
  ): Promise<string> {
    if (!secrets.credential)
      throw connectorError(
        "AUTH_FAILED",
        "The GitHub connection has no credential. Ask the workspace owner to add one.",
      );
    if (target.authType !== "GITHUB_APP") return `Bearer ${secrets.credential}`;
    const appId = target.settings.appId;
    const installationId = target.settings.installationId;
    if (!isId(appId) || !isId(installationId)) {
      throw connectorError(
        "INVALID_SETTINGS",
        "The GitHub App connection needs a numeric appId and installationId in its settings.",
      );
    }
    const key = `${target.connectionId}|${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}`;
    const cached = runId === undefined ? undefined : runTokens.get(runId, key, now());
    if (cached) return `Bearer ${cached.token}`;
    const minted = await mintInstallationToken({
      fetch: deps.outbound,
      baseUrl,
      appId: String(appId),
      installationId: String(installationId),
      privateKey: secrets.credential,
      repositoryName: repo.name,
      nowMs: now(),
      deadline,
      headers: baseHeaders,
    });
    if (runId !== undefined) runTokens.set(runId, key, minted);
    return `Bearer ${minted.token}`;
  }

  async function get(
    url: URL,
    auth: string,
    accept: string | undefined,
    deadline: CallDeadline,
    readLimit: number,
  ) {
    return restRequest(
      deps.outbound,
      {
        method: "GET",
        url,
        headers: { ...baseHeaders, ...(accept ? { accept } : {}), authorization: auth },
      },
      // 404 and 422 are answers the model can act on (wrong number, bad query), not failures.
      { deadline, readLimit, service: "GitHub", passStatuses: [404, 422] },
    );
  }

  return {
    kind: "GITHUB",

    listTools() {
      return Promise.resolve(githubTools.map((t) => structuredClone(t.descriptor)));
    },

    async callTool(target, secrets, name, args, options: CallOptions): Promise<ToolResult> {
      const tool = githubToolsByName.get(name);
      if (!tool)
        throw connectorError(
          "UNKNOWN_TOOL",
          `GitHub has no tool named ${JSON.stringify(name.slice(0, 80))} in SecondShift's allowlist.`,
        );
      // Everything that can refuse does so before the first byte leaves ([C22]).
      const repo = resolveRepository(args, options.scope);
      const plan = planOrRefuse((a, r) => tool.plan(a, r), args, repo);
      const baseUrl = parseBaseUrl(target.endpoint || DEFAULT_GITHUB_API, "GitHub");
      const url = plan.search
        ? buildUrl(baseUrl, plan.segments, plan.query)
        : buildUrl(baseUrl, ["repos", repo.owner, repo.name, ...plan.segments], plan.query);

      const deadline = startDeadline(options.signal, options.timeoutMs);
      try {
        const auth = await authorization(
          target,
          secrets,
          repo,
          baseUrl,
          options.scope.runId,
          deadline,
        );
        const readLimit = readLimitFor(options.maxResultBytes);
        if (name === "get_workflow_run_logs") {
          const jobs = await get(url, auth, undefined, deadline, readLimit);
          if (jobs.status !== 200)
            return textResult(
              `GitHub answered HTTP ${jobs.status}: workflow run not found.`,
              options.maxResultBytes,
              true,
            );
          const text = await summariseRunLogs(jobs.text, options.maxResultBytes, (jobId) =>
            get(
              buildUrl(baseUrl, ["repos", repo.owner, repo.name, "actions", "jobs", jobId, "logs"]),
              auth,
              undefined,
              deadline,
              readLimit,
            ),
          );
          return textResult(text, options.maxResultBytes);
        }
        const response = await get(url, auth, plan.accept, deadline, readLimit);
        if (response.status === 404 || response.status === 422) {
          return textResult(
            `GitHub answered HTTP ${response.status}: ${response.status === 404 ? "not found" : "the request was not valid"}.`,
            options.maxResultBytes,
            true,
          );
        }
        const parts = [
          plan.accept === "application/vnd.github.diff" || plan.accept?.includes("raw")
            ? response.text
            : compactJson(response),
        ];
        if (!response.complete) parts[0] += "\n[truncated]";
        const next = nextPageFromLink(response.headers.get("link"));
        if (next !== null) parts.unshift(`[more results: call again with page=${next}]\n`);
        return buildResult(parts, options.maxResultBytes);
      } finally {
        deadline.clear();
      }
    },

    async disposeRun(runId) {
      for (const token of runTokens.take(runId)) {
        // Revoke so a leaked copy dies with the run; failure only means it expires on its own (≤ 1 h).
        const deadline = startDeadline(new AbortController().signal, 5_000);
        await restRequest(
          deps.outbound,
          {
            method: "DELETE",
            url: buildUrl(token.baseUrl, ["installation", "token"]),
            headers: { ...baseHeaders, authorization: `Bearer ${token.token}` },
          },
          { deadline, readLimit: 1024, service: "GitHub" },
        )
          .catch((error: unknown) =>
            deps.logger.warn(
              { reason: (error as { reason?: string }).reason },
              "github: installation token revocation failed",
            ),
          )
          .finally(() => deadline.clear());
      }
    },

    /** Test and diagnostics hook: how many installation tokens are cached (optionally for one run). */
    cachedTokenCount: (runId?: string) => runTokens.size(runId),
  } as Connector & { cachedTokenCount(runId?: string): number };
}

function isId(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isInteger(value) && value > 0) ||
    (typeof value === "string" && /^\d{1,20}$/.test(value))
  );
}

function planOrRefuse(
  plan: (a: Record<string, unknown>, r: ScopedRepository) => GithubRequestPlan,
  args: Record<string, unknown>,
  repo: ScopedRepository,
): GithubRequestPlan {
  try {
    return plan(args, repo);
  } catch (error) {
    if (error instanceof RangeError)
      throw outOfScope(
        "search_code searches only the job's repository; repo:, org:, user: and similar qualifiers are not allowed.",
      );
    if (error instanceof TypeError)
      throw connectorError("INVALID_ARGUMENTS", `Invalid arguments: ${error.message}.`);
    throw error;
  }
}
