// The parsed, normalised form of `.secondshift.yaml` that the rest of the platform consumes.
import type { RepoConfigError, RequestedOutputs, RequestedTriggers } from "@secondshift/vocabulary";

/** Connection kinds as the database spells them. */
export type RequestedKind = "GITHUB" | "SENTRY" | "MCP" | "HTTP";

/** One group of requested tools. `label` is the owner's connection label (MCP / HTTP only). */
export interface RequestedToolGroup {
  kind: RequestedKind;
  label: string | null;
  required: boolean;
  /** Sorted, without duplicates. */
  tools: string[];
}

export interface RepoJob {
  key: string;
  name: string;
  description: string | null;
  /** Exactly one of prompt / promptFile is set; the worker reads promptFile from the commit. */
  prompt: string | null;
  promptFile: string | null;
  schedule: string | null;
  timezone: string;
  model: string | null;
  /** Null when the file declares none: runs get the workspace's default token budget. */
  tokenBudget: number | null;
  timeoutSeconds: number;
  /** Sorted by kind then label. */
  tools: RequestedToolGroup[];
  /** Output kinds the job requests (`comment`, `issue`); an absent kind is not requested. */
  outputs: RequestedOutputs;
  /**
   * Events the job asks to run on (`on:`; `pull_request`, `issue`, `comment_command`); empty
   * for schedule or on-demand only. Requested and reviewed only: no event starts a run yet.
   */
  triggers: RequestedTriggers;
}

export interface RepoConfig {
  version: 1;
  /** Sorted by key. */
  jobs: RepoJob[];
}

/**
 * A problem in the file, located for the person who has to fix it: the vocabulary's shape,
 * which the repository row stores and every screen reads.
 */
export type { RepoConfigError };

/** Operator settings the file is bounded by (from the worker's environment). */
export interface RepoConfigLimits {
  maxTimeoutMinutes: number;
  maxTokenBudget: number;
  defaultTimeoutMinutes: number;
}

export type ParseRepoConfigResult =
  { ok: true; config: RepoConfig } | { ok: false; errors: RepoConfigError[] };
