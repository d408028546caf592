// Acting as a user from a browser context: tRPC mutations sent exactly as the web app sends
// them (same origin, JSON), sharing the context's cookies — so a sign-in here signs in the
// pages opened from the same context.
import type { BrowserContext } from "playwright-core";

/** Runs an API mutation from the browser context; returns its (superjson `json`) result. */
export async function mutateAs(
  context: BrowserContext,
  origin: string,
  path: string,
  input?: unknown,
): Promise<unknown> {
  const response = await context.request.post(`${origin}/api/trpc/${path}`, {
    headers: { origin, "content-type": "application/json" },
    data: input === undefined ? {} : { json: input },
  });
  const body = (await response.json()) as { result?: { data?: { json?: unknown } } };
  if (!response.ok()) throw new Error(`${path} failed: ${JSON.stringify(body)}`);
  return body.result?.data?.json;
}

/** Signs the context in (the API sets the session cookie on it). */
export async function signInContext(
  context: BrowserContext,
  origin: string,
  user: { email: string; password: string },
): Promise<void> {
  await mutateAs(context, origin, "auth.signIn", user);
}
