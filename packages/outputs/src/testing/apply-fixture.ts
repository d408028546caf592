// Test wiring for applying outputs: the loopback GitHub App, issues and pulls fakes, a GitHub App
// connection on the seeded repository (its key encrypted as the web app stores it), the real
// token minter and netguard client (loopback allowed explicitly), and output rows.
import { randomBytes, randomUUID } from "node:crypto";
import { createRepositoryTokenMinter, outboundFromNetguard } from "@secondshift/connectors";
import { startFakeGithubApp, type FakeGithubApp } from "@secondshift/connectors/testing/github-app";
import {
  startFakeGithubIssues,
  type FakeGithubIssues,
} from "@secondshift/connectors/testing/github-issues";
import {
  startFakeGithubPulls,
  type FakeGithubPulls,
} from "@secondshift/connectors/testing/github-pulls";
import { createKeyring, encryptField } from "@secondshift/crypto";
import type { Db, Prisma, RunStatus } from "@secondshift/db";
import { seedRun, type SeededWorkspace } from "@secondshift/db/testing";
import { SecretMasker } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import type { OutputState } from "@secondshift/vocabulary";
import type { ApplyDeps } from "../apply/apply-output.ts";

export interface ApplyFixture {
  app: FakeGithubApp;
  github: FakeGithubIssues;
  pulls: FakeGithubPulls;
  deps: ApplyDeps;
  masker: SecretMasker;
  close(): Promise<void>;
}

export async function startApplyFixture(db: Db): Promise<ApplyFixture> {
  const app = await startFakeGithubApp();
  const github = startFakeGithubIssues(app, { owner: "acme", repo: "app" });
  const pulls = startFakeGithubPulls(app, { owner: "acme", repo: "app" });
  const client = createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: ["localhost"],
    allowedPrivateCidrs: ["127.0.0.0/8", "::1/128"],
    timeoutMs: 10_000,
  });
  const outbound = outboundFromNetguard(client);
  const masker = new SecretMasker();
  const deps: ApplyDeps = {
    db,
    keyring: testKeyring,
    mintToken: createRepositoryTokenMinter({ outbound, userAgent: "secondshift-test/1" }),
    fetch: outbound,
    userAgent: "secondshift-test/1",
    masker,
  };
  return {
    app,
    github,
    pulls,
    deps,
    masker,
    close: async () => {
      await client.close();
      await app.stop();
    },
  };
}

export const testKeyring = createKeyring(new Uint8Array(randomBytes(32)));

/** The seeded repository ("acme/app") is fetched through a GitHub App connection. */
export async function connectGithubApp(db: Db, seed: SeededWorkspace, app: FakeGithubApp) {
  const id = randomUUID();
  await db.connection.create({
    data: {
      id,
      workspaceId: seed.workspaceId,
      kind: "GITHUB",
      label: `app-${id.slice(0, 8)}`,
      endpoint: app.apiBase,
      authType: "GITHUB_APP",
      settings: { appId: String(app.appId), installationId: String(app.installationId) },
      credentialCiphertext: await encryptField(testKeyring, app.privateKeyPem, {
        workspaceId: seed.workspaceId,
        table: "Connection",
        rowId: id,
        field: "credentialCiphertext",
      }),
    },
  });
  await db.repository.update({ where: { id: seed.repositoryId }, data: { connectionId: id } });
  return id;
}

export async function seedOutput(
  db: Db,
  seed: SeededWorkspace,
  output: {
    kind: "comment" | "issue" | "pull_request";
    payload: Prisma.InputJsonObject;
    state?: OutputState;
    runStatus?: RunStatus;
    proposedAt?: Date;
  },
) {
  const run = await seedRun(db, seed, { status: output.runStatus ?? "SUCCEEDED" });
  return db.runOutput.create({
    data: {
      workspaceId: seed.workspaceId,
      runId: run.id,
      jobId: seed.jobId,
      seq: 0,
      kind: output.kind,
      state: output.state ?? "READY",
      payload: output.payload,
      ...(output.proposedAt ? { proposedAt: output.proposedAt } : {}),
    },
  });
}
