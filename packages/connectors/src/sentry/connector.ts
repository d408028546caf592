// The Sentry connector: allowlisted read tools, the owner's organization only (settings
// .organization), token auth. Base URL = the owner's endpoint (self-hosted Sentry works).
import type { Connector, ToolResult } from "../types.ts";
import { startDeadline } from "../shared/deadline.ts";
import type { ConnectorDeps } from "../shared/deps.ts";
import { connectorError, outOfScope } from "../shared/errors.ts";
import { compactJson, readLimitFor, restRequest } from "../shared/rest.ts";
import { buildResult, textResult } from "../shared/result.ts";
import { buildUrl, checkSegment, nextCursorFromLink, parseBaseUrl } from "../shared/url.ts";
import { sentryTools, sentryToolsByName } from "./tools.ts";

export const DEFAULT_SENTRY_URL = "https://sentry.io";
const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export function createSentryConnector(deps: ConnectorDeps): Connector {
  return {
    kind: "SENTRY",

    listTools() {
      return Promise.resolve(sentryTools.map((t) => structuredClone(t.descriptor)));
    },

    async callTool(target, secrets, name, args, options): Promise<ToolResult> {
      const tool = sentryToolsByName.get(name);
      if (!tool)
        throw connectorError(
          "UNKNOWN_TOOL",
          `Sentry has no tool named ${JSON.stringify(name.slice(0, 80))} in SecondShift's allowlist.`,
        );
      const org =
        typeof target.settings.organization === "string"
          ? target.settings.organization.toLowerCase()
          : "";
      if (!SLUG.test(org))
        throw connectorError(
          "INVALID_SETTINGS",
          "The Sentry connection has no valid organization in its settings. Ask the workspace owner to choose one.",
        );
      // [C22] a call naming another organization is refused before any request.
      const named = args.organization;
      if (named !== undefined && (typeof named !== "string" || named.toLowerCase() !== org)) {
        throw outOfScope(
          `Sentry tools may only use the organization ${org}; the call named another one and was refused.`,
        );
      }
      const plan = tool.plan(args);
      if (typeof args.issue_id === "string") checkSegment(args.issue_id, "issue id");
      if (!secrets.credential)
        throw connectorError(
          "AUTH_FAILED",
          "The Sentry connection has no token. Ask the workspace owner to add one.",
        );
      const base = parseBaseUrl(target.endpoint || DEFAULT_SENTRY_URL, "Sentry");
      const url = buildUrl(base, ["api", "0", "organizations", org, ...plan.segments], plan.query);

      const deadline = startDeadline(options.signal, options.timeoutMs);
      try {
        const response = await restRequest(
          deps.outbound,
          {
            method: "GET",
            url,
            headers: {
              accept: "application/json",
              authorization: `Bearer ${secrets.credential}`,
              "user-agent": `${deps.clientInfo.name}/${deps.clientInfo.version}`,
            },
          },
          {
            deadline,
            readLimit: readLimitFor(options.maxResultBytes),
            service: "Sentry",
            passStatuses: [404],
          },
        );
        if (response.status === 404)
          return textResult("Sentry answered HTTP 404: not found.", options.maxResultBytes, true);
        const parts = [compactJson(response) + (response.complete ? "" : "\n[truncated]")];
        const next = nextCursorFromLink(response.headers.get("link"));
        if (next !== null) parts.unshift(`[more results: call again with cursor="${next}"]\n`);
        return buildResult(parts, options.maxResultBytes);
      } finally {
        deadline.clear();
      }
    },
  };
}
