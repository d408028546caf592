// Model-facing tool names. Both providers accept only [A-Za-z0-9_-], at most 64 characters
// (OpenAI's limit; Anthropic allows more), so plan tools get a derived safe name and a reverse
// map. Only names found in that map ever reach the broker: a model-chosen name is a lookup key,
// never an argument.
import { createHash } from "node:crypto";
import type { PlanTool } from "../types.ts";

export const MAX_TOOL_NAME = 64;

function sanitize(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return cleaned || "x";
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * Builds `mcp__<label>__<tool>`-style names for plan tools, unique among themselves and the
 * built-in names. Collisions and over-long names get a hash of the connection and tool.
 */
export function planToolNames(plan: PlanTool[], reserved: Iterable<string>): Map<string, PlanTool> {
  const byName = new Map<string, PlanTool>();
  const taken = new Set(reserved);
  for (const entry of plan) {
    const parts = [entry.connectionKind, entry.label, entry.tool].filter((p): p is string =>
      Boolean(p),
    );
    let name = parts.map(sanitize).join("__");
    if (name.length > MAX_TOOL_NAME || taken.has(name)) {
      const suffix = `__${shortHash(`${entry.connectionId}\0${entry.tool}`)}`;
      name = name.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    }
    // A second hash collision is practically impossible; refuse rather than shadow a tool.
    if (taken.has(name))
      throw new Error(`Two plan tools map to the same model-facing name ${name}.`);
    taken.add(name);
    byName.set(name, entry);
  }
  return byName;
}

/** A model-chosen name, made safe to echo back in an error message. */
export function displayName(raw: unknown): string {
  return typeof raw === "string" ? sanitize(raw).slice(0, MAX_TOOL_NAME) : "(not a name)";
}
