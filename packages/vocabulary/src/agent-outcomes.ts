// How the agent loop ended, as it reports it (packages/agent) and as the transcript's error and
// agent_finished events carry it; packages/runs maps each onto the run's final status.

export const AGENT_OUTCOMES = [
  "succeeded",
  "failed",
  "timed_out",
  "cancelled",
  "budget_exhausted",
  "revoked",
  "max_turns",
] as const;

export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];
