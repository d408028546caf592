// The fixture the live-transcript tests share: the process's run event listener on the test
// database, the API over real HTTP reading it, two workspaces (acme, other) and the users who
// watch: a viewer of acme, the owner of the other workspace and a user of none.
import { createUser } from "@secondshift/accounts/testing";
import { seedWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { startRunEventListener } from "../run-events/listener.ts";
import { startTestApi, type TestApi } from "./index.ts";

export interface TranscriptFixtureOptions {
  /** Every user's password. */
  password: string;
  /** How old a stream's last check of its viewer may be before it checks again. */
  streamReauthorizeMs?: number;
}

export function transcriptTest(options: TranscriptFixtureOptions) {
  return dbTest
    .extend("listener", { scope: "file" }, async ({ testDatabase }, { onCleanup }) => {
      const listener = await startRunEventListener({
        connectionString: testDatabase.url,
        logger: createLogger({ name: "transcript-test", destination: createMemorySink().stream }),
        backoffMs: { first: 50, max: 200 },
      });
      onCleanup(() => listener.close());
      return listener;
    })
    .extend("api", { scope: "file" }, async ({ db, listener }, { onCleanup }) => {
      const api: TestApi = await startTestApi(db, {
        runEvents: listener,
        ...(options.streamReauthorizeMs
          ? { streamReauthorizeMs: options.streamReauthorizeMs }
          : {}),
        limits: { maxPerAccount: 100, maxPerAddress: 1000 },
      });
      onCleanup(() => api.close());
      return api;
    })
    .extend("acme", { scope: "file" }, ({ db }) => seedWorkspace(db, { name: "acme" }))
    .extend("other", { scope: "file" }, ({ db }) => seedWorkspace(db, { name: "other" }))
    .extend("users", { scope: "file" }, async ({ db, acme, other }) => ({
      viewer: await createUser(db, options.password, {
        workspaceId: acme.workspaceId,
        role: "VIEWER",
      }),
      otherOwner: await createUser(db, options.password, {
        workspaceId: other.workspaceId,
        role: "OWNER",
      }),
      stranger: await createUser(db, options.password),
    }));
}
