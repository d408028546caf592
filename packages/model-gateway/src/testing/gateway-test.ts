// Vitest fixtures for gateway tests, on top of dbTest (the file's database): the scripted
// provider on loopback and a gateway over the file's database, both file-scoped (started on
// first use, closed after the file). Kept apart from fixtures.ts, which the benches import
// outside Vitest.
//   const test = gatewayTest();
//   test("…", async ({ db, gw, provider }) => { … });
import { dbTest } from "@secondshift/db/testing/vitest";
import { startTestGateway, type TestGatewayOptions } from "./fixtures.ts";
import { startScriptedProvider } from "./scripted-provider.ts";

/** `options` configure the file's gateway `gw` (limits, forwarding policy, metrics). */
export function gatewayTest(options: TestGatewayOptions = {}) {
  return (
    dbTest
      // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
      .extend("provider", { scope: "file" }, async ({}, { onCleanup }) => {
        const provider = await startScriptedProvider();
        onCleanup(() => provider.close());
        return provider;
      })
      .extend("gw", { scope: "file" }, async ({ testDatabase }, { onCleanup }) => {
        const gw = await startTestGateway(testDatabase, options);
        onCleanup(() => gw.close());
        return gw;
      })
  );
}
