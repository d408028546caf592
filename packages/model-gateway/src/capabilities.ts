// Provider-side capabilities the agent loop does not need and the gateway therefore does not
// forward (C14, C16, C17): tools the provider runs itself (web search and fetch, code
// execution, computer use…) reach the outside or bill on their own meter; remote MCP servers
// are called by the provider, not through our broker; file, container and stored-state
// references (`previous_response_id`, `conversation`, stored prompts) feed the model input the
// budget's input estimate cannot see; URL sources make the provider fetch from the internet.
// Each is refused with a 400 naming it, unless the operator allowlists it by name
// (GATEWAY_ALLOWED_PROVIDER_TOOLS). Only client-side tools (`function`, `custom`, or an
// Anthropic tool without a type) always pass.
import { AppError } from "@secondshift/errors";
import type { WireFormat } from "./routes.ts";

/** The names an operator can allowlist (plus any other provider tool's type, date suffix removed). */
export const PROVIDER_CAPABILITIES = {
  web_search: "PROVIDER_TOOL_NOT_ALLOWED",
  web_fetch: "PROVIDER_TOOL_NOT_ALLOWED",
  code_execution: "PROVIDER_TOOL_NOT_ALLOWED",
  computer_use: "PROVIDER_TOOL_NOT_ALLOWED",
  file_search: "PROVIDER_TOOL_NOT_ALLOWED",
  image_generation: "PROVIDER_TOOL_NOT_ALLOWED",
  mcp: "REMOTE_MCP_NOT_ALLOWED",
  files: "FILE_REFERENCE_NOT_ALLOWED",
  url_sources: "URL_SOURCE_NOT_ALLOWED",
  previous_response_id: "STORED_STATE_NOT_ALLOWED",
  conversation: "STORED_STATE_NOT_ALLOWED",
  stored_prompt: "STORED_STATE_NOT_ALLOWED",
} as const;

type Known = keyof typeof PROVIDER_CAPABILITIES;

interface Use {
  capability: string;
  /** Where in the body, for the error message. */
  at: string;
}

const CLIENT_TOOL_TYPES = new Set([undefined, "function", "custom"]);

/** A provider tool type → its capability name (e.g. web_search_20250305 → web_search). */
export function toolCapability(type: string): string {
  const base = type.replace(/_\d{8}$/, "");
  if (base.startsWith("web_search")) return "web_search";
  if (base === "code_interpreter") return "code_execution";
  if (base === "computer" || base.startsWith("computer_use")) return "computer_use";
  if (base === "mcp" || base === "mcp_toolset") return "mcp";
  return base;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function toolUses(tools: unknown): Use[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool, i): Use[] => {
    const type = isObject(tool) ? tool.type : undefined;
    if (CLIENT_TOOL_TYPES.has(type as string | undefined)) return [];
    const capability = typeof type === "string" ? toolCapability(type) : "unknown_tool";
    return [{ capability, at: `tools[${i}].type` }];
  });
}

const remoteUrl = (v: unknown) => typeof v === "string" && !v.startsWith("data:");

/** What one content part (or Responses input item) refers to outside the request. */
function partUse(part: Record<string, unknown>, at: string): Use | null {
  const source = isObject(part.source) ? part.source : undefined;
  const file = isObject(part.file) ? part.file : undefined;
  const imageUrl = isObject(part.image_url) ? part.image_url.url : part.image_url;
  if (part.file_id !== undefined || file?.file_id !== undefined || source?.type === "file")
    return { capability: "files", at: `${at}.file_id` };
  if (part.type === "container_upload") return { capability: "files", at: `${at}.type` };
  if (part.type === "item_reference")
    return { capability: "previous_response_id", at: `${at}.type` };
  if (source?.type === "url" || remoteUrl(imageUrl) || part.file_url !== undefined)
    return { capability: "url_sources", at: `${at}` };
  return null;
}

/** Walks content arrays (messages, tool results, Responses input items) for references. */
function contentUses(list: unknown, at: string, depth = 0): Use[] {
  if (!Array.isArray(list) || depth > 4) return [];
  return list.flatMap((part, i): Use[] => {
    if (!isObject(part)) return [];
    const here = `${at}[${i}]`;
    const use = partUse(part, here);
    return [
      ...(use ? [use] : []),
      ...contentUses(part.content, `${here}.content`, depth + 1),
      ...contentUses(part.output, `${here}.output`, depth + 1),
      ...(isObject(part.source)
        ? contentUses(part.source.content, `${here}.source.content`, depth + 1)
        : []),
    ];
  });
}

function fieldUses(json: Record<string, unknown>, fields: Record<string, string>): Use[] {
  return Object.entries(fields).flatMap(([field, capability]) =>
    json[field] === undefined || json[field] === null ? [] : [{ capability, at: field }],
  );
}

/** Every provider-side capability a request body uses. */
export function capabilityUses(format: WireFormat, json: Record<string, unknown>): Use[] {
  const uses = toolUses(json.tools);
  if (format === "anthropic-messages" || format === "anthropic-count-tokens") {
    uses.push(...fieldUses(json, { mcp_servers: "mcp", container: "files" }));
    uses.push(...contentUses(json.system, "system"));
    uses.push(...contentUses(json.messages, "messages"));
  } else if (format === "openai-chat") {
    uses.push(...fieldUses(json, { web_search_options: "web_search" }));
    uses.push(...contentUses(json.messages, "messages"));
  } else {
    uses.push(
      ...fieldUses(json, {
        previous_response_id: "previous_response_id",
        conversation: "conversation",
        prompt: "stored_prompt",
      }),
    );
    uses.push(...contentUses(json.input, "input"));
  }
  return uses;
}

/** Throws a 400 naming the first capability the request uses that the operator did not allow. */
export function refuseProviderCapabilities(
  format: WireFormat,
  json: Record<string, unknown>,
  allowed: ReadonlySet<string>,
): void {
  const refused = capabilityUses(format, json).find((u) => !allowed.has(u.capability));
  if (!refused) return;
  const name = refused.capability.slice(0, 64);
  const reason = PROVIDER_CAPABILITIES[refused.capability as Known] ?? "PROVIDER_TOOL_NOT_ALLOWED";
  throw new AppError(
    "BAD_REQUEST",
    `This request uses the provider-side capability "${name}" (${refused.at}), which the gateway does not forward: use client-side function tools, or ask the operator to add "${name}" to GATEWAY_ALLOWED_PROVIDER_TOOLS.`,
    { reason },
  );
}
