// The owner web app's pages: Next.js prepared from the built output in this app's folder
// (`npm run build` → .next/), never a development server. main.ts hands it every request that
// is not the API, health or a push webhook.
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

// The part of Next's server API used here. Loaded with require and typed by hand: importing
// "next" would bring in its global type declarations (a required NODE_ENV on every
// ProcessEnv), which break the Node side's child-process calls in other packages.
interface NextServer {
  prepare(): Promise<void>;
  getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}
type CreateNextServer = (options: { dev: boolean; dir: string; quiet?: boolean }) => NextServer;
const next = createRequire(import.meta.url)("next") as CreateNextServer;

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The folder holding next.config.mjs and the built `.next/`: apps/web from the sources; the
 * image's /app, where scripts/stage-app.sh puts them beside dist/web.mjs.
 */
export const WEB_APP_DIR = resolve(import.meta.dirname, "..");

export async function prepareWebApp(dir: string = WEB_APP_DIR): Promise<PageHandler> {
  if (!existsSync(join(dir, ".next", "BUILD_ID"))) {
    throw new Error(
      `The web app is not built (no ${join(dir, ".next")}). Run \`npm run build -w @secondshift/web\` first.`,
    );
  }
  const app = next({ dev: false, dir });
  await app.prepare();
  const handle = app.getRequestHandler();
  return (req, res) => handle(req, res);
}
