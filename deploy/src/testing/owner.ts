// The owner, as a browser would be: the API's own test client (a cookie jar over fetch that sends
// the web app's Origin, with tRPC's client and superjson) pointed at a deployed stack's web URL.
import { testBrowser, type TestBrowser } from "@secondshift/api/testing";
import { listConnectionTools } from "@secondshift/broker";
import { closeConnectors, createConnectors, outboundFromNetguard } from "@secondshift/connectors";
import { createKeyring, decodeKey } from "@secondshift/crypto";
import { createDatabase } from "@secondshift/db";
import { createLogger } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";

export function ownerBrowser(webUrl: string): TestBrowser {
  return testBrowser(`${webUrl}/api/trpc`, webUrl);
}

/** The one-time setup token from the web service's log (`…/setup?token=…`). */
export function setupTokenIn(webLog: string): string | undefined {
  return /\/setup\?token=([A-Za-z0-9_-]+)/.exec(webLog)?.[1];
}

/**
 * Tool discovery of a connection, as the worker's broker does it, against the stack's database
 * and with its key. The one step of the end-to-end run that does not go through the owner API:
 * the API has no discovery procedure yet (`connections.discover`, being added with the web
 * screens). Replace this with that procedure when it lands.
 */
export async function discoverTools(
  stack: { databaseUrl: string; encryptionKey: string },
  ids: { workspaceId: string; userId: string; connectionId: string },
): Promise<string[]> {
  const database = createDatabase(stack.databaseUrl, { maxConnections: 2 });
  const client = createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.1/32"],
  });
  const connectors = createConnectors({
    outbound: outboundFromNetguard(client),
    logger: createLogger({ name: "smoke-discovery", level: "silent" }),
    clientInfo: { name: "secondshift-smoke", version: "0.1.0" },
  });
  try {
    const tools = await listConnectionTools({
      db: database.db,
      actor: { userId: ids.userId },
      workspaceId: ids.workspaceId,
      keyring: createKeyring(decodeKey(stack.encryptionKey, "SECONDSHIFT_ENCRYPTION_KEY")),
      connectors,
      connectionId: ids.connectionId,
      timeoutMs: 20_000,
    });
    return tools.map((t) => t.name);
  } finally {
    await closeConnectors(connectors);
    await client.close();
    await database.close();
  }
}
