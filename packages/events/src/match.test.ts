import { describe, expect, test } from "vitest";
import { isOwnApp, senderVerdict } from "./bots.ts";
import { parseDelivery } from "./deliveries/parse.ts";
import type { Delivery } from "./deliveries/types.ts";
import { matchTrigger, readCommand } from "./match.ts";
import { issueCommentPayload, issuesPayload, pullRequestPayload } from "./testing/payloads.ts";

const repository = "acme/app";
const sha = "a".repeat(40);

function parsed(event: Delivery["event"], payload: unknown): Delivery {
  const result = parseDelivery(event, payload);
  if (!result.ok) throw new Error(result.reason);
  return result.delivery;
}

describe("parseDelivery", () => {
  test("a real pull_request.opened example fills the TriggerEvent fields", () => {
    const d = parsed(
      "pull_request",
      pullRequestPayload("opened", { repository, headSha: sha, number: 7, installationId: 42 }),
    );
    expect(d).toMatchObject({
      action: "opened",
      repositoryFullName: repository,
      installationId: "42",
      subject: { type: "pull_request", number: 7, author: "Codertocat" },
      actor: { login: "Codertocat", isBot: false },
      pullRequest: { headSha: sha, headRef: "changes", baseRef: "master" },
      dedupeKey: `pr:7:opened:${sha}`,
    });
  });

  test("a comment on a pull request is a pull request subject, deduped by comment id", () => {
    const d = parsed(
      "issue_comment",
      issueCommentPayload({
        repository,
        body: "/secondshift review",
        number: 3,
        onPullRequest: true,
        commentId: 99,
      }),
    );
    expect(d.subject).toMatchObject({ type: "pull_request", number: 3 });
    expect(d.pullRequest).toBeNull();
    expect(d.dedupeKey).toBe("comment:99");
  });

  test("attacker-shaped payloads are ignored with a reason, never thrown", () => {
    const pr = pullRequestPayload("opened", { repository, headSha: sha });
    (pr.pull_request as Record<string, unknown>).number = "7";
    expect(parseDelivery("pull_request", pr)).toEqual({
      ok: false,
      reason: expect.stringContaining("pull_request.number") as string,
    });
    const bad = pullRequestPayload("opened", { repository, headSha: "not-a-sha" });
    expect(parseDelivery("pull_request", bad).ok).toBe(false);
    expect(parseDelivery("issues", [1, 2]).ok).toBe(false);
    expect(parseDelivery("issues", { action: "opened", issue: null }).ok).toBe(false);
    expect(
      parseDelivery("issue_comment", {
        ...issueCommentPayload({ repository, body: "x" }),
        action: "edited",
      }).ok,
    ).toBe(false);
    const draft = pullRequestPayload("opened", { repository, headSha: sha, draft: true });
    expect(parseDelivery("pull_request", draft)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("draft") as string,
    });
    expect(
      parseDelivery(
        "pull_request",
        pullRequestPayload("ready_for_review", { repository, headSha: sha, draft: true }),
      ).ok,
    ).toBe(true);
  });
});

describe("readCommand", () => {
  test("the first line is exactly `/secondshift <key>`, optionally a space and a task", () => {
    expect(readCommand("/secondshift review")).toEqual({ jobKey: "review", task: null });
    expect(readCommand("/secondshift review  please look at auth\nmore")).toEqual({
      jobKey: "review",
      task: "please look at auth",
    });
    expect(readCommand("/secondshift review\r\nthanks")).toEqual({ jobKey: "review", task: null });
    expect(readCommand("please /secondshift review")).toBeNull();
    expect(readCommand("hello\n/secondshift review")).toBeNull();
    expect(readCommand("/secondshiftreview")).toBeNull();
    expect(readCommand("/secondshift ")).toBeNull();
  });
});

describe("matchTrigger", () => {
  const labeled = (label: string) =>
    parsed("issues", issuesPayload("labeled", { repository, labels: [label], label }));
  test("issues: labeled needs the added label to be the trigger's; opened with labels needs one", () => {
    const trigger = {
      issue: {
        actions: ["opened", "labeled"] as ("opened" | "labeled")[],
        labels: ["bug"],
        bots: false,
      },
    };
    expect(matchTrigger(trigger, "t", labeled("bug"))).toMatchObject({ kind: "issue" });
    expect(matchTrigger(trigger, "t", labeled("docs"))).toBeNull();
    const opened = (labels: string[]) =>
      parsed("issues", issuesPayload("opened", { repository, labels }));
    expect(matchTrigger(trigger, "t", opened(["docs", "bug"]))).not.toBeNull();
    expect(matchTrigger(trigger, "t", opened(["docs"]))).toBeNull();
    expect(
      matchTrigger({ issue: { actions: ["opened"], labels: [], bots: false } }, "t", opened([])),
    ).not.toBeNull();
  });

  test("pull requests by action; comment commands by exact job key", () => {
    const sync = parsed(
      "pull_request",
      pullRequestPayload("synchronize", { repository, headSha: sha }),
    );
    expect(
      matchTrigger({ pull_request: { actions: ["opened"], bots: false } }, "r", sync),
    ).toBeNull();
    expect(
      matchTrigger({ pull_request: { actions: ["synchronize"], bots: true } }, "r", sync),
    ).toEqual({ kind: "pull_request", bots: true, commandText: null });
    const comment = parsed(
      "issue_comment",
      issueCommentPayload({ repository, body: "/secondshift review fix the tests" }),
    );
    const trigger = { comment_command: { bots: false } };
    expect(matchTrigger(trigger, "review", comment)).toEqual({
      kind: "comment_command",
      bots: false,
      commandText: "fix the tests",
    });
    expect(matchTrigger(trigger, "Review", comment)).toBeNull();
    expect(matchTrigger(trigger, "rev", comment)).toBeNull();
    expect(matchTrigger({}, "review", comment)).toBeNull();
  });
});

describe("bots", () => {
  const apps = [{ appId: "123", appSlug: "secondshift-acme" }];
  const delivery = (login: string, isBot: boolean, viaAppId: string | null) => ({
    actor: { login, isBot },
    viaAppId,
  });
  test("[E03] our own App is recognised by performed_via_github_app.id or by its bot login", () => {
    expect(isOwnApp(delivery("whatever[bot]", true, "123"), apps)).toBe(true);
    expect(isOwnApp(delivery("SecondShift-Acme[bot]", true, null), apps)).toBe(true);
    expect(isOwnApp(delivery("someone", false, "123"), apps)).toBe(false);
    expect(isOwnApp(delivery("dependabot[bot]", true, "29110"), apps)).toBe(false);
    expect(senderVerdict(delivery("whatever[bot]", true, "123"), apps, true)).toBe("own_app");
    expect(senderVerdict(delivery("dependabot[bot]", true, null), apps, false)).toBe("bot");
    expect(senderVerdict(delivery("dependabot[bot]", true, null), apps, true)).toBe("counts");
  });
});
