// A proposed pull request approved by its owner in Chromium (issue #24 item 7), against the
// real stack: the built web app and the worker share the database and Redis; the run proposes
// a pull request, it is held, the owner reads its diff on the run page and approves it there,
// and the fake GitHub receives exactly one pull request on a `secondshift/` branch whose tree
// is the run's changes, written with a token minted after the run and revoked.
import { createUser } from "@secondshift/accounts/testing";
import { runNow } from "@secondshift/domain";
import {
  claimRedisDatabase,
  launchBrowser,
  LOOPBACK_ALLOWED,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  type RedisDatabase,
  type WebApp,
} from "@secondshift/web/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  githubAppWorkspace,
  pullRequestConfig,
  startGithubOutputs,
  type GithubOutputs,
} from "./harness/github-outputs.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitFor } from "./harness/scenario.ts";
import { waitForRunEnd } from "./harness/run-end.ts";

let p: Platform;
let g: GithubOutputs;
let app: WebApp;
let browser: Browser;
let redis: RedisDatabase | undefined;

beforeAll(async () => {
  // The web app queues the approved output on the worker's queue: one Redis database for both.
  redis = await claimRedisDatabase();
  p = await startPlatform({ redis: { url: redis.url } });
  g = await startGithubOutputs();
  [app, browser] = await Promise.all([
    startWebApp({
      shared: {
        database: { url: p.t.url, db: p.t.db },
        encryptionKeyB64: p.encryptionKeyB64,
        redisUrl: redis.url,
      },
      env: LOOPBACK_ALLOWED,
    }),
    launchBrowser(),
  ]);
  await p.worker.start({ repoSync: false });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await g?.close();
  await p?.close();
  await redis?.release();
});

describe("a pull request approved in the browser", () => {
  it("[O02][O03][O06] is held, shown file by file, approved by the owner in Chromium, and opened once by the App", async () => {
    const files = {
      ".secondshift.yaml": pullRequestConfig("deps-browser"),
      "package.json": '{"name":"widgets","version":"1.0.0"}\n',
    };
    const { ws, owner, job, commit } = await githubAppWorkspace(p, g, files, {
      pull_request: { mode: "hold" },
    });
    p.model.script([
      () => ({
        tool: "shell",
        input: {
          command: `printf '%s\\n' '{"name":"widgets","version":"1.2.0"}' > package.json && printf 'Bumped.\\n' > NOTES.md`,
        },
      }),
      () => ({
        tool: "secondshift_propose_pull_request",
        input: { title: "Update widgets to 1.2.0", body: "The weekly update." },
      }),
      () => ({ text: "Proposed a pull request." }),
    ]);
    const { runId } = await runNow(owner, { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run.status, JSON.stringify(run)).toBe("SUCCEEDED");
    await waitFor("the pull request held", () =>
      p.t.db.runOutput.findFirst({ where: { runId, state: "HELD" } }),
    );
    const mintsBefore = g.app.mints.length;

    const password = "correct horse battery staple 42";
    const user = await createUser(p.t.db, password, { workspaceId: ws.workspaceId, role: "OWNER" });
    const context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, { email: user.email, password });
    const page = await context.newPage();
    await page.goto(`/w/${ws.workspaceId}/runs/${runId}`);
    const card = page.locator('[data-testid="output"][data-state="HELD"]');
    await card.getByText('Pull request "Update widgets to 1.2.0"').waitFor();
    // The owner sees each file of the worker's own diff before deciding.
    expect(await card.locator('[data-testid="pr-file"]').count()).toBe(2);
    await card.getByRole("heading", { name: /package\.json/ }).waitFor();
    await card.getByText('+{"name":"widgets","version":"1.2.0"}').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(g.github.creates()).toHaveLength(0);

    await card.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: /Apply this output/ });
    await dialog.getByRole("button", { name: "Approve and apply" }).click();
    await page.getByRole("link", { name: /pull\/1/ }).waitFor({ timeout: 60_000 });

    expect(g.github.pulls).toHaveLength(1);
    const [pull] = g.github.pulls;
    expect(pull).toMatchObject({ base: "main", head: `secondshift/${job.key}-${runId}` });
    expect(g.github.commits.get(pull!.headSha)?.parents).toEqual([commit]);
    expect(g.github.treeFiles(pull!.headSha)).toEqual({
      ".secondshift.yaml": { mode: "100644", content: files[".secondshift.yaml"] },
      "package.json": { mode: "100644", content: '{"name":"widgets","version":"1.2.0"}\n' },
      "NOTES.md": { mode: "100644", content: "Bumped.\n" },
    });
    const mints = g.app.mints.slice(mintsBefore).filter((m) => m.body.permissions?.pull_requests);
    expect(mints).toHaveLength(1);
    expect(g.app.revoked).toContain(mints[0]!.token);
    await context.close();
  }, 300_000);
});
