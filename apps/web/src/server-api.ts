// The bridge between the web process and its Next.js pages. main.ts builds the owner API's
// server-side caller (packages/api createServerApi, same deps as the HTTP handler) and
// registers it here; pages rendered by Next in the same process read it back. Next bundles
// the pages separately from main.ts, so the two sides do not share module state: the bridge is
// a process-wide global under a registered symbol.
import type { ServerApi } from "@secondshift/api";

const KEY = Symbol.for("secondshift.web.server-api");
type Holder = { [KEY]?: ServerApi };

export function registerServerApi(api: ServerApi): void {
  (globalThis as Holder)[KEY] = api;
}

export function serverApi(): ServerApi {
  const api = (globalThis as Holder)[KEY];
  if (!api) {
    throw new Error(
      "The owner API is not registered: pages are served only by the web process (src/main.ts).",
    );
  }
  return api;
}
