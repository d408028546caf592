// The HTTP API connector: the owner's operations against the owner's base URL, with the
// credential injected as a header. The response is returned as text (status + body), capped.
import type { ConnectionSecrets, ConnectionTarget, Connector, ToolResult } from "../types.ts";
import { startDeadline } from "../shared/deadline.ts";
import type { ConnectorDeps } from "../shared/deps.ts";
import { connectorError } from "../shared/errors.ts";
import { readLimitFor, restRequest } from "../shared/rest.ts";
import { buildResult } from "../shared/result.ts";
import { buildUrl, checkSegment, parseBaseUrl } from "../shared/url.ts";
import { operationDescriptor, parseOperations, type HttpOperation } from "./operations.ts";

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const ALL_STATUSES = Array.from({ length: 500 }, (_, i) => i + 100);

function authHeaders(target: ConnectionTarget, secrets: ConnectionSecrets): Record<string, string> {
  switch (target.authType) {
    case "NONE":
      return {};
    case "BEARER":
      if (!secrets.credential) break;
      return { authorization: `Bearer ${secrets.credential}` };
    case "HEADER": {
      const name = target.authHeaderName ?? "";
      if (!HEADER_NAME.test(name))
        throw connectorError(
          "INVALID_SETTINGS",
          "The HTTP connection's auth header name is not a valid header name.",
        );
      if (!secrets.credential) break;
      return { [name.toLowerCase()]: secrets.credential };
    }
    default:
      throw connectorError(
        "INVALID_SETTINGS",
        `HTTP connections support no auth, a bearer token or a custom header, not ${target.authType}.`,
      );
  }
  throw connectorError(
    "AUTH_FAILED",
    "The HTTP connection has no credential. Ask the workspace owner to add one.",
  );
}

function scalar(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw connectorError(
    "INVALID_ARGUMENTS",
    `The parameter ${name} must be a string, number or boolean here.`,
  );
}

/** Literal segments come from the owner; each placeholder takes exactly one checked segment. */
function pathSegments(op: HttpOperation, args: Record<string, unknown>): string[] {
  return op.pathTemplate
    .split("/")
    .filter((s) => s !== "")
    .map((segment) => {
      const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
      if (!m?.[1]) return segment;
      const value = args[m[1]];
      if (value === undefined)
        throw connectorError("INVALID_ARGUMENTS", `The path parameter ${m[1]} is required.`);
      return checkSegment(scalar(value, m[1]), `path parameter ${m[1]}`);
    });
}

export function createHttpConnector(deps: ConnectorDeps): Connector {
  return {
    kind: "HTTP",

    listTools(target) {
      return Promise.resolve(parseOperations(target.settings).map(operationDescriptor));
    },

    async callTool(target, secrets, name, args, options): Promise<ToolResult> {
      const op = parseOperations(target.settings).find((o) => o.name === name);
      if (!op)
        throw connectorError(
          "UNKNOWN_TOOL",
          `The HTTP connection has no operation named ${JSON.stringify(name.slice(0, 80))}.`,
        );
      const base = parseBaseUrl(target.endpoint, "HTTP API");
      const query: Record<string, string> = {};
      for (const key of op.query) if (args[key] !== undefined) query[key] = scalar(args[key], key);
      const url = buildUrl(base, pathSegments(op, args), query);
      const hasBody = op.body.length > 0 && op.method !== "GET" && op.method !== "DELETE";
      const body = hasBody
        ? JSON.stringify(
            Object.fromEntries(
              op.body.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]),
            ),
          )
        : undefined;
      const auth = authHeaders(target, secrets);
      const headers: Record<string, string> = {
        accept: "application/json, text/plain;q=0.9, */*;q=0.5",
        "user-agent": `${deps.clientInfo.name}/${deps.clientInfo.version}`,
        ...(hasBody ? { "content-type": "application/json" } : {}),
        ...auth,
      };

      const deadline = startDeadline(options.signal, options.timeoutMs);
      try {
        const response = await restRequest(
          deps.outbound,
          {
            method: op.method,
            url,
            headers,
            sensitiveHeaders: Object.keys(auth),
            ...(body === undefined ? {} : { body }),
          },
          // Error statuses of the owner's API carry useful detail for the model: return them as results.
          {
            deadline,
            readLimit: readLimitFor(options.maxResultBytes),
            service: "The HTTP API",
            passStatuses: ALL_STATUSES,
          },
        );
        const ok = response.status >= 200 && response.status < 300;
        return buildResult(
          [`HTTP ${response.status}\n`, response.text + (response.complete ? "" : "\n[truncated]")],
          options.maxResultBytes,
          !ok,
        );
      } finally {
        deadline.clear();
      }
    },
  };
}
