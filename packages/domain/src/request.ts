// A job's tool request in one canonical form, and its hash. Two requests that mean the same
// (tool order, duplicates, group order) hash the same; anything that widens or changes access
// (a tool, a group, a label, `required`) hashes differently and so needs a new approval (C04).
import { createHash } from "node:crypto";
import { compareGroups, type RequestedToolGroup } from "@secondshift/config";
import {
  hasTriggers,
  type RequestedOutputs,
  type RequestedTriggers,
} from "@secondshift/vocabulary";
import { hasOutputs, readRequestedOutputs } from "./outputs/stored.ts";
import { readRequestedTriggers } from "./triggers/stored.ts";

export type { RequestedToolGroup } from "@secondshift/config";

export const groupKey = (group: Pick<RequestedToolGroup, "kind" | "label">): string =>
  `${group.kind}:${group.label ?? ""}`;

export function normaliseRequest(groups: readonly RequestedToolGroup[]): RequestedToolGroup[] {
  const merged = new Map<string, RequestedToolGroup>();
  for (const g of groups) {
    const label = g.kind === "MCP" || g.kind === "HTTP" ? g.label : null;
    const key = groupKey({ kind: g.kind, label });
    const existing = merged.get(key);
    merged.set(key, {
      kind: g.kind,
      label,
      required: (existing?.required ?? false) || g.required,
      tools: [...new Set([...(existing?.tools ?? []), ...g.tools])].sort(),
    });
  }
  // Fixed key order, so JSON.stringify is canonical.
  return [...merged.values()]
    .sort(compareGroups)
    .map((g) => ({ kind: g.kind, label: g.label, required: g.required, tools: g.tools }));
}

/**
 * The request's hash: its tools and, when it requests any, its outputs and its triggers (a job
 * without outputs or triggers keeps the hash it had before they existed, so its approval
 * stands). Adding, widening or narrowing a trigger changes the hash: the owner approves again.
 */
export function requestHash(
  groups: readonly RequestedToolGroup[],
  outputs: RequestedOutputs = {},
  triggers: RequestedTriggers = {},
): string {
  const normalised = readRequestedOutputs(outputs);
  const on = readRequestedTriggers(triggers);
  const canonical = JSON.stringify({
    v: 1,
    groups: normaliseRequest(groups),
    ...(hasOutputs(normalised) ? { outputs: normalised } : {}),
    ...(hasTriggers(on) ? { triggers: on } : {}),
  });
  return createHash("sha256").update(canonical).digest("hex");
}
/** Reads Job.requestedTools back (written by upsertJobsFromConfig, so trusted in shape). */
export function storedRequest(value: unknown): RequestedToolGroup[] {
  return Array.isArray(value) ? normaliseRequest(value as RequestedToolGroup[]) : [];
}
