// Real GitHub payloads (@octokit/webhooks-examples, the community-maintained examples) adapted
// to a test's repository, installation and numbers, and signed as GitHub signs them
// (@octokit/webhooks-methods). For tests and the benchmark only.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import { sign } from "@octokit/webhooks-methods";

const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples",
) as WebhookDefinition[];

type Json = Record<string, unknown>;

export type ExampleEvent = "pull_request" | "issues" | "issue_comment";

/** A deep copy of the first example of `event` with `action` (one that has an installation). */
export function example(event: ExampleEvent, action: string): Json {
  const all = examples.find((d) => d.name === event)?.examples as unknown as Json[] | undefined;
  const matching = (all ?? []).filter((e) => e.action === action);
  const chosen = matching.find((e) => e.installation !== undefined) ?? matching[0];
  if (!chosen) throw new Error(`no ${event}.${action} example`);
  return structuredClone(chosen);
}

export interface Adapt {
  repository: string;
  installationId?: number;
  number?: number;
  /** The object's time (updated_at / created_at); default now. */
  at?: Date;
  sender?: { login: string; type?: "User" | "Bot" };
  /** performed_via_github_app.id on the object an App wrote. */
  viaAppId?: number;
}

function adaptCommon(payload: Json, a: Adapt): Json {
  const repository = payload.repository as Json;
  repository.full_name = a.repository;
  repository.name = a.repository.split("/")[1];
  if (a.installationId === undefined) delete payload.installation;
  else payload.installation = { id: a.installationId, node_id: "x" };
  if (a.sender)
    payload.sender = { ...(payload.sender as Json), ...a.sender, type: a.sender.type ?? "User" };
  return payload;
}

const url = (a: Adapt, kind: string, n: number) =>
  `https://github.com/${a.repository}/${kind}/${n}`;

export function pullRequestPayload(
  action: "opened" | "synchronize" | "reopened" | "ready_for_review",
  a: Adapt & { headSha: string; draft?: boolean },
): Json {
  const payload = adaptCommon(example("pull_request", action), a);
  const pr = payload.pull_request as Json;
  const n = a.number ?? 2;
  Object.assign(pr, {
    number: n,
    html_url: url(a, "pull", n),
    updated_at: (a.at ?? new Date()).toISOString(),
    draft: a.draft ?? false,
  });
  payload.number = n;
  (pr.head as Json).sha = a.headSha;
  ((pr.head as Json).repo as Json).full_name = a.repository;
  if (a.viaAppId !== undefined) pr.performed_via_github_app = { id: a.viaAppId };
  return payload;
}

export function issuesPayload(
  action: "opened" | "labeled",
  a: Adapt & { labels?: string[]; label?: string },
): Json {
  const payload = adaptCommon(example("issues", action), a);
  const issue = payload.issue as Json;
  const n = a.number ?? 1;
  Object.assign(issue, {
    number: n,
    html_url: url(a, "issues", n),
    updated_at: (a.at ?? new Date()).toISOString(),
    labels: (a.labels ?? []).map((name, i) => ({ id: i + 1, name })),
  });
  if (a.label !== undefined) payload.label = { ...(payload.label as Json), name: a.label };
  if (a.viaAppId !== undefined) issue.performed_via_github_app = { id: a.viaAppId };
  return payload;
}

export function issueCommentPayload(
  a: Adapt & { body: string; commentId?: number; onPullRequest?: boolean },
): Json {
  const payload = adaptCommon(example("issue_comment", "created"), a);
  const issue = payload.issue as Json;
  const comment = payload.comment as Json;
  const n = a.number ?? 1;
  const kind = a.onPullRequest ? "pull" : "issues";
  Object.assign(issue, { number: n, html_url: url(a, kind, n) });
  if (a.onPullRequest)
    issue.pull_request = { url: `https://api.github.com/repos/${a.repository}/pulls/${n}` };
  Object.assign(comment, {
    id: a.commentId ?? Math.floor(Math.random() * 1e9),
    body: a.body,
    html_url: `${url(a, kind, n)}#issuecomment-1`,
    created_at: (a.at ?? new Date()).toISOString(),
  });
  if (a.viaAppId !== undefined) comment.performed_via_github_app = { id: a.viaAppId };
  return payload;
}

/** Headers and body of a delivery as GitHub sends it, signed with `secret`. */
export async function signedDelivery(
  secret: string,
  event: string,
  payload: unknown,
): Promise<{ headers: Record<string, string>; rawBody: Buffer; body: string }> {
  const body = JSON.stringify(payload);
  return {
    body,
    rawBody: Buffer.from(body),
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await sign(secret, body),
    },
  };
}
