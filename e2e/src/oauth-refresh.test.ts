// C26 end to end: a run whose OAuth MCP connection's access token expires between two tool
// calls. The worker refreshes it at the authorization server's token endpoint with the refresh
// token, the next call goes out with the new access token, and none of the three tokens reaches
// the sandbox (its environment, its files, the engine's record of the container), the model's
// requests, the transcript, audit rows or the logs.
import { createConnection, runNow, setAllowedTools } from "@secondshift/domain";
import { listConnectionTools } from "@secondshift/broker";
import { startFakeMcp, type FakeMcp } from "@secondshift/connectors/testing/fake-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { inspectRunContainers } from "./harness/containers.ts";
import { lastToolResult, type ModelRequest } from "./harness/model-server.ts";
import { plantedToken, startTokenEndpoint, type TokenEndpoint } from "./harness/oauth-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import { everywhere, findLeaks } from "./harness/scenario.ts";
import {
  createRepository,
  jobYaml,
  plantedSecrets,
  seedWorkspace,
  syncAndApprove,
} from "./harness/seed.ts";

let p: Platform;
let mcp: FakeMcp;
let oauth: TokenEndpoint;
beforeAll(async () => {
  p = await startPlatform();
  mcp = await startFakeMcp();
  oauth = await startTokenEndpoint();
  // The resource server accepts exactly the access tokens the authorization server issued.
  oauth.onIssue = ({ accessToken }) => mcp.accepted.add(`Bearer ${accessToken}`);
});
afterAll(async () => {
  await p?.close();
  await mcp?.stop();
  await oauth?.close();
});

const toolName = (req: ModelRequest, suffix: string) =>
  (req.body.tools ?? []).map((t) => t.name).find((n) => n.endsWith(suffix))!;

describe("scenario: an OAuth access token expires during a run", () => {
  it("[C26][C12][C25] the worker refreshes it with the refresh token; no token reaches the sandbox, the model, the transcript or audit rows", async () => {
    const planted = plantedSecrets();
    const oldAccess = plantedToken("at");
    const oldRefresh = plantedToken("rt");
    oauth.valid.add(oldRefresh);
    mcp.accepted.add(`Bearer ${oldAccess}`);

    const repo = createRepository({
      ".secondshift.yaml": jobYaml([{ key: "triage", tools: ["ping"] }]),
      "README.md": "# app\n",
    });
    const plain = await seedWorkspace(p, { planted, repoDir: repo.dir });
    const owner = actAs(p, plain.workspaceId, plain.ownerId);
    const { id: connectionId } = await createConnection(owner, {
      kind: "MCP",
      label: "everything",
      endpoint: mcp.url,
      authType: "OAUTH",
      credential: null,
      oauth: {
        accessToken: oldAccess,
        refreshToken: oldRefresh,
        expiresAt: new Date(Date.now() + 3_600_000),
        config: { tokenEndpoint: oauth.url },
      },
    });
    await listConnectionTools({
      ...owner,
      keyring: p.keyring,
      connectors: p.worker.connectors,
      connectionId,
      timeoutMs: 20_000,
    });
    await setAllowedTools(owner, { connectionId, tools: ["ping"] });
    const ws = { ...plain, connectionId };
    await syncAndApprove(p, ws);
    const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(job.status).toBe("APPROVED");

    let runId = "";
    let containers: unknown[] = [];
    const mcpSeenBefore = mcp.seen.length;
    p.model.script([
      (req) => ({ tool: toolName(req, "ping"), input: {} }),
      async (req) => {
        expect(lastToolResult(req)).toContain("pong");
        expect(oauth.refreshes).toEqual([]); // valid: never refreshed (C26)
        // The hour passes: the stored token expires, and the service stops taking it.
        await p.t.db.connection.update({
          where: { id: connectionId },
          data: { oauthAccessTokenExpiresAt: new Date(Date.now() - 60_000) },
        });
        mcp.accepted.delete(`Bearer ${oldAccess}`);
        return { tool: toolName(req, "ping"), input: {} };
      },
      async (req) => {
        expect(lastToolResult(req)).toContain("pong");
        containers = await inspectRunContainers(runId);
        // Everything the agent's shell can see: its environment, the workspace, tmp and home.
        return {
          tool: "shell",
          input: {
            command:
              "echo ENV-BEGIN; env; cat /proc/self/environ | tr '\\0' '\\n'; echo ENV-END; " +
              "echo GREP-BEGIN; grep -rIl -e oauth-planted . /tmp /home /run 2>/dev/null; echo GREP-END",
          },
        };
      },
      (req) => {
        const out = lastToolResult(req);
        expect(out).toContain("ENV-END");
        expect(out).toContain("HOME=");
        // Nothing found between the markers: no file in the sandbox holds a planted token.
        const found = out.slice(out.indexOf("GREP-BEGIN") + 10, out.indexOf("GREP-END"));
        expect(found.replaceAll("\\n", "").trim()).toBe("");
        return { text: "Pinged twice." };
      },
    ]);

    await p.worker.start({ repoSync: false });
    ({ runId } = await runNow(owner, { jobId: job.id }));
    const run = await waitForRunEnd(p, runId);
    expect(run, JSON.stringify(run)).toMatchObject({
      status: "SUCCEEDED",
      summary: "Pinged twice.",
    });

    // Refreshed exactly once, with the stored refresh token; the second call used the new token.
    expect(oauth.refreshes).toEqual([oldRefresh]);
    expect(oauth.issued).toHaveLength(1);
    const fresh = oauth.issued[0]!;
    const sent = mcp.seen.slice(mcpSeenBefore);
    expect(sent).toContain(`Bearer ${oldAccess}`);
    expect(sent.at(-1)).toBe(`Bearer ${fresh.accessToken}`);
    const audits = await p.t.db.auditEvent.findMany({
      where: { workspaceId: ws.workspaceId, action: "tool.call" },
    });
    expect(audits.map((a) => a.outcome)).toEqual(["ok", "ok"]);
    expect(containers.length).toBe(1);

    const places = await everywhere(p, ws.workspaceId, {
      modelRequestHeaders: JSON.stringify(p.model.requests.map((r) => r.headers)),
      sandboxContainer: JSON.stringify(containers),
    });
    const leaks = findLeaks(places, {
      oldAccessToken: oldAccess,
      oldRefreshToken: oldRefresh,
      newAccessToken: fresh.accessToken,
      newRefreshToken: fresh.refreshToken,
    });
    expect(leaks).toEqual([]);
    // The scan saw the sandbox's own dump of its environment (it is in the transcript).
    expect(places.runEvents).toContain("ENV-BEGIN");
    expect(places.runEvents).toContain("HOSTNAME=sandbox");
  });
});
