// The API for server-side rendering: the web app's pages call procedures in-process with the
// context built from the page request's headers, exactly as the HTTP handler builds it from
// its request (same deps from the same options, same session cookie, same procedures and
// checks). A server render only reads: it cannot set or clear the session cookie.
import { resolveSession } from "@secondshift/accounts";
import { apiDeps, type ApiOptions } from "./http.ts";
import type { ApiDeps, Context } from "./context.ts";
import { sessionCookieFromHeader, type SessionCookieWriter } from "./cookies.ts";
import { appRouter, type AppRouter } from "./root.ts";
import { createCallerFactory } from "./trpc.ts";

const createCaller = createCallerFactory(appRouter);

export type ServerCaller = ReturnType<typeof createCaller>;

export interface ServerApi {
  router: AppRouter;
  /** The context for one server render, from its request headers (cookie). */
  createContext(headers: Headers): Promise<Context>;
  /** A caller of every procedure as the user the request's session cookie names. */
  createServerCaller(headers: Headers): Promise<ServerCaller>;
}

const readOnlyCookies: SessionCookieWriter = {
  set: () => {
    throw new Error("A server render cannot change the session; sign in through /api/trpc/.");
  },
  clear: () => {
    throw new Error("A server render cannot change the session; sign out through /api/trpc/.");
  },
};

export async function createServerContext(deps: ApiDeps, headers: Headers): Promise<Context> {
  const sessionToken = sessionCookieFromHeader(headers.get("cookie"), deps.cookie);
  return {
    deps,
    db: deps.accounts.db,
    request: { clientAddress: "server-render", origin: null, userAgent: null },
    session: await resolveSession(deps.accounts, sessionToken),
    sessionToken,
    cookies: readOnlyCookies,
  };
}

export function createServerApi(options: ApiOptions): ServerApi {
  const deps = apiDeps(options);
  return {
    router: appRouter,
    createContext: (headers) => createServerContext(deps, headers),
    createServerCaller: async (headers) => createCaller(await createServerContext(deps, headers)),
  };
}
