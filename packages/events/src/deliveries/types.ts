// A GitHub delivery as the intake reads it: the TriggerEvent columns, plus what routing, the
// stale check and the own-App rule need. Texts (title, bodies, comment) are untrusted.

/** The GitHub events the intake takes (X-GitHub-Event). */
export const EVENT_NAMES = ["pull_request", "issues", "issue_comment"] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const isEventName = (v: string | undefined): v is EventName =>
  (EVENT_NAMES as readonly string[]).includes(v ?? "");

export type SubjectType = "pull_request" | "issue";

export interface PullRequestHead {
  headSha: string;
  headRef: string;
  baseRef: string;
  /** The head's repository (a fork's); null when GitHub no longer knows it (deleted fork). */
  headRepoFullName: string | null;
}

export interface DeliveredComment {
  id: string;
  body: string;
  url: string;
}

export interface Delivery {
  event: EventName;
  action: string;
  /** `repository.full_name` and `installation.id`: which repository, through which App. */
  repositoryFullName: string;
  installationId: string | null;
  /** The object's own time (updated_at, or the comment's created_at): the stale check's clock. */
  occurredAt: Date;
  subject: { type: SubjectType; number: number; title: string; url: string; author: string };
  actor: { login: string; isBot: boolean };
  /** `performed_via_github_app.id` of the object, when an App wrote it. */
  viaAppId: string | null;
  /** Pull request deliveries only. */
  pullRequest: PullRequestHead | null;
  labels: string[];
  /** The label added, for `labeled`. */
  label: string | null;
  /** The or pull request's description. */
  body: string | null;
  /** issue_comment deliveries only. */
  comment: DeliveredComment | null;
  /** Unique per job (TriggerEvent's (jobId, dedupeKey)): a redelivery starts nothing (E04). */
  dedupeKey: string;
}

export type ParseResult = { ok: true; delivery: Delivery } | { ok: false; reason: string };
