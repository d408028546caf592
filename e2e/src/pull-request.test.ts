// A proposed pull request (issue #24 phase (b)) through the worker exactly as apps/worker wires
// it, in a real gVisor sandbox, against a loopback GitHub speaking the real wire format (App
// installation tokens, Git Data API, pulls): the agent changes files, rewrites the sandbox's
// `.git` to hide some of it, and proposes a pull request; the worker takes the changes itself;
// the pull request is held; after the owner's approval exactly one pull request exists on a
// `secondshift/` branch whose tree is the run's changes, committed by the App (no author or
// committer sent), with a token minted after the run and revoked, seen nowhere else.
import { approveOutput, runNow } from "@secondshift/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  githubAppWorkspace,
  pullRequestConfig,
  startGithubOutputs,
  type GithubOutputs,
} from "./harness/github-outputs.ts";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitFor } from "./harness/scenario.ts";
import { waitForRunEnd } from "./harness/run-end.ts";

const PACKAGE = '{"name":"widgets","version":"1.0.0"}\n';

let p: Platform;
let g: GithubOutputs;

beforeAll(async () => {
  p = await startPlatform();
  g = await startGithubOutputs();
  await p.worker.start({ repoSync: false });
});

afterAll(async () => {
  await g?.close();
  await p?.close();
});

async function appWorkspace(mode: "hold" | "auto") {
  const files = { ".secondshift.yaml": pullRequestConfig(`deps-${mode}`), "package.json": PACKAGE };
  const made = await githubAppWorkspace(p, g, files, { pull_request: { mode } });
  return { ...made, files };
}

// The agent's changes, then its attempt to hide part of them in the sandbox's own git: it
// commits everything (so `git diff HEAD` is empty) and excludes a new file.
const CHANGE_AND_HIDE = [
  "set -e",
  `printf '%s\\n' '{"name":"widgets","version":"1.1.0"}' > package.json`,
  "printf '# Changes\\n\\n- widgets 1.1.0\\n' > CHANGELOG.md",
  "printf '#!/bin/sh\\necho ok\\n' > check.sh && chmod +x check.sh",
  "ln -s CHANGELOG.md NEWS",
  "git -c user.name=a -c user.email=a@a add -A",
  "git -c user.name=a -c user.email=a@a -c commit.gpgsign=false commit -qm 'nothing to see'",
  "echo 'not in the diff' > .hidden-note && mkdir -p .git/info && echo .hidden-note >> .git/info/exclude",
  'echo "porcelain=$(git status --porcelain | wc -l)"',
].join(" && ");

describe("a proposed pull request", () => {
  it("[O01][O03][O04][O06] is taken from the sandbox's files by the worker, held, and after approval opened exactly once on a secondshift/ branch by the App", async () => {
    const { ws, owner, commit, files } = await appWorkspace("hold");
    const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    const runStart = g.app.mints.length;
    let offered: string[] = [];
    let writesDuringRun = -1;
    let shellResult = "";
    let proposeResult = "";
    p.model.script([
      (req) => {
        offered = (req.body.tools ?? []).map((t) => t.name);
        return { tool: "shell", input: { command: CHANGE_AND_HIDE } };
      },
      (req) => {
        shellResult = lastToolResult(req);
        return {
          tool: "secondshift_propose_pull_request",
          input: { title: "Update widgets to 1.1.0", body: "The weekly dependency update." },
        };
      },
      (req) => {
        proposeResult = lastToolResult(req);
        writesDuringRun = g.github.creates().length;
        return { text: "Proposed a pull request." };
      },
    ]);
    const { runId } = await runNow(owner, { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run.status, JSON.stringify(run)).toBe("SUCCEEDED");
    const finishedAt = run.finishedAt!.getTime();
    expect(offered).toContain("secondshift_propose_pull_request");
    expect(writesDuringRun).toBe(0); // [O01]
    // The run's own Changes are the worker's too: the excluded file and the committed edit show.
    expect(run.diff).toContain("+++ b/.hidden-note");
    expect(run.diff).toContain('+{"name":"widgets","version":"1.1.0"}');
    // The sandbox's own git saw nothing changed; the model was told nothing was posted.
    expect(shellResult, shellResult).toMatch(/porcelain=0\b/);
    expect(proposeResult).toMatch(/nothing has been posted/i);

    const output = await waitFor("the pull request held", () =>
      p.t.db.runOutput.findFirst({ where: { runId, state: "HELD" } }),
    );
    const payload = output.payload as { files: Array<{ path: string }>; headBranch: string };
    // The worker's own comparison: the committed and the excluded changes are both there.
    expect(payload.files.map((f) => f.path)).toEqual([
      ".hidden-note",
      "CHANGELOG.md",
      "NEWS",
      "check.sh",
      "package.json",
    ]);
    expect(payload.headBranch).toBe(`secondshift/${job.key}-${runId}`);
    expect(g.github.creates()).toHaveLength(0);

    await approveOutput(owner, { outputId: output.id });
    const applied = await waitFor("the pull request applied", () =>
      p.t.db.runOutput.findFirst({ where: { id: output.id, state: "APPLIED" } }),
    );

    // [O06][O04] exactly one pull request, from a secondshift/ branch, into main.
    expect(g.github.pulls).toHaveLength(1);
    const [pull] = g.github.pulls;
    expect(pull).toMatchObject({
      title: "Update widgets to 1.1.0",
      head: payload.headBranch,
      base: "main",
      draft: true,
      labels: ["dependencies"],
    });
    expect(applied.resultUrl).toBe(`https://github.test/acme/widgets/pull/${pull!.number}`);
    expect(g.github.refs.get("refs/heads/main")).toBe(commit);
    const made = g.github.commits.get(pull!.headSha)!;
    expect(made.parents).toEqual([commit]);
    expect(made.sentAuthor).toBeUndefined();
    expect(made.sentCommitter).toBeUndefined();
    expect(g.github.treeFiles(pull!.headSha)).toEqual({
      ".secondshift.yaml": { mode: "100644", content: files[".secondshift.yaml"] },
      "package.json": { mode: "100644", content: '{"name":"widgets","version":"1.1.0"}\n' },
      "CHANGELOG.md": { mode: "100644", content: "# Changes\n\n- widgets 1.1.0\n" },
      "check.sh": { mode: "100755", content: "#!/bin/sh\necho ok\n" },
      NEWS: { mode: "120000", content: "CHANGELOG.md" },
      ".hidden-note": { mode: "100644", content: "not in the diff\n" },
    });

    // [O03] the write token: minted after the run ended, contents + pull requests on widgets
    // only, revoked after, and found nowhere the run, the model or the audit log could see.
    const writeMints = g.app.mints.slice(runStart).filter((m) => m.body.permissions?.pull_requests);
    expect(writeMints).toHaveLength(1);
    const [mint] = writeMints;
    expect(mint!.body).toEqual({
      repositories: ["widgets"],
      permissions: { contents: "write", pull_requests: "write" },
    });
    expect(mint!.claims!.iat * 1000 + 60_000).toBeGreaterThanOrEqual(finishedAt - 1000);
    expect(g.app.revoked).toContain(mint!.token);
    for (const call of g.github.creates()) expect(call.token).toBe(mint!.token);
    const events = await p.t.db.runEvent.findMany({ where: { runId } });
    const audit = await p.t.db.auditEvent.findMany({ where: { workspaceId: ws.workspaceId } });
    for (const text of [
      JSON.stringify(events),
      JSON.stringify(audit),
      JSON.stringify(p.model.requests),
      JSON.stringify(await p.t.db.runOutput.findMany({ where: { runId } })),
      p.logs(),
    ])
      expect(text).not.toContain(mint!.token);
  }, 240_000);

  it("[O04] a change to .secondshift.yaml is held for the owner even when pull requests apply automatically", async () => {
    const { ws, owner } = await appWorkspace("auto");
    const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    const pullsBefore = g.github.pulls.length;
    p.model.script([
      () => ({
        tool: "shell",
        input: { command: "printf '  # widened by the agent\\n' >> .secondshift.yaml" },
      }),
      () => ({
        tool: "secondshift_propose_pull_request",
        input: { title: "Tidy the config", body: "" },
      }),
      () => ({ text: "Done." }),
    ]);
    const { runId } = await runNow(owner, { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run.status, JSON.stringify(run)).toBe("SUCCEEDED");
    const output = await waitFor("the pull request checked", () =>
      p.t.db.runOutput.findFirst({ where: { runId, state: { not: "PROPOSED" } } }),
    );
    expect(output).toMatchObject({
      state: "HELD",
      reason: `Held: the pull request changes ".secondshift.yaml", which is never applied without an owner's approval.`,
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(g.github.pulls).toHaveLength(pullsBefore);
  }, 240_000);
});
