// Connection.discoveredTools as stored by discovery: the owner chooses from these, and the
// frozen plan snapshots their input schemas.

export interface DiscoveredTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  mayChangeData: boolean;
  annotations?: Record<string, unknown>;
}

export function readDiscoveredTools(value: unknown): Map<string, DiscoveredTool> {
  const out = new Map<string, DiscoveredTool>();
  if (!Array.isArray(value)) return out;
  for (const item of value as unknown[]) {
    if (!item || typeof item !== "object") continue;
    const tool = item as Partial<DiscoveredTool>;
    if (typeof tool.name !== "string" || !tool.inputSchema || typeof tool.inputSchema !== "object")
      continue;
    // Unknown means "may change data": the review must never understate what a tool can do.
    out.set(tool.name, {
      ...tool,
      name: tool.name,
      inputSchema: tool.inputSchema,
      mayChangeData: tool.mayChangeData !== false,
    });
  }
  return out;
}
