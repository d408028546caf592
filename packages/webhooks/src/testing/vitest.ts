// Vitest fixtures for this package's delivery tests: dbTest's database, plus an outbound client
// that reaches loopback receivers only (one per file, closed after the file).
//   import { deliveryTest as test } from "./testing/vitest.ts";
//   test("…", async ({ db, client }) => { … });
import { dbTest } from "@secondshift/db/testing/vitest";
import { createOutboundClient } from "@secondshift/netguard";
import { loopbackPolicy } from "./fixtures.ts";

export const deliveryTest = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("client", { scope: "file" }, ({}, { onCleanup }) => {
    const client = createOutboundClient(loopbackPolicy({ timeoutMs: 2_000 }));
    onCleanup(() => client.close());
    return client;
  });
