// The owner, as a browser would be: the API's own test client (a cookie jar over fetch that sends
// the web app's Origin, with tRPC's client and superjson) pointed at a deployed stack's web URL.
import { testBrowser, type TestBrowser } from "@secondshift/api/testing";

export function ownerBrowser(webUrl: string): TestBrowser {
  return testBrowser(`${webUrl}/api/trpc`, webUrl);
}

/** The one-time setup token from the web service's log (`…/setup?token=…`). */
export function setupTokenIn(webLog: string): string | undefined {
  return /\/setup\?token=([A-Za-z0-9_-]+)/.exec(webLog)?.[1];
}
