// MCP tool results → text for the model. Text passes through (capped by the caller); images,
// audio and embedded resources are never passed raw — each becomes a short placeholder, so no
// binary or server-chosen blob reaches the model's context.
const short = (value: unknown, max = 200): string =>
  typeof value === "string" ? value.slice(0, max) : "";

function approxBytes(base64: unknown): number {
  return typeof base64 === "string" ? Math.floor((base64.length * 3) / 4) : 0;
}

export function contentToText(item: unknown): string {
  if (typeof item !== "object" || item === null) return "[content omitted: not an object]";
  const c = item as Record<string, unknown>;
  switch (c.type) {
    case "text":
      return typeof c.text === "string" ? c.text : "";
    case "image":
    case "audio":
      return `[${c.type} omitted: ${short(c.mimeType, 80) || "unknown type"}, ${approxBytes(c.data)} bytes]`;
    case "resource": {
      const r = (c.resource ?? {}) as Record<string, unknown>;
      const size =
        typeof r.text === "string" ? `${r.text.length} characters` : `${approxBytes(r.blob)} bytes`;
      return `[embedded resource omitted: ${short(r.uri)} (${short(r.mimeType, 80) || "unknown type"}, ${size})]`;
    }
    case "resource_link":
      return `[resource link: ${short(c.uri)}${c.name ? ` (${short(c.name, 100)})` : ""}]`;
    default:
      return `[content of type ${short(c.type, 40) || "unknown"} omitted]`;
  }
}

/** All parts of a tools/call result as text; structuredContent is used when there is no content. */
export function callResultToTexts(result: Record<string, unknown>): string[] {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length > 0) return content.map(contentToText);
  if (result.structuredContent !== undefined) return [JSON.stringify(result.structuredContent)];
  // Protocol 2024-10-07 servers answer with { toolResult }.
  if (result.toolResult !== undefined)
    return [
      typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult),
    ];
  return [];
}
