// An owner-typed service URL (a model provider's base URL, a webhook target, a connection's
// endpoint, a clone URL): a full http(s) URL with no credentials in it, and — when the app
// wired `ctx.destinations` — one the operator's outbound policy lets SecondShift reach (C21).
// The send-time guard decides again at every call: DNS can change after a save.
import { AppError } from "@secondshift/errors";
import type { ActorContext } from "./context.ts";

export function parseServiceUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      `${what} must be a full URL such as https://api.example.com.`,
      {
        reason: "URL_INVALID",
      },
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AppError(
      "BAD_REQUEST",
      `${what} must use https (plain http only outside production).`,
      {
        reason: "URL_INVALID",
      },
    );
  }
  if (url.username || url.password) {
    throw new AppError("BAD_REQUEST", `${what} must not contain a user name or password.`, {
      reason: "URL_HAS_CREDENTIALS",
    });
  }
  return url;
}

/** Refuses a URL the outbound policy would refuse at send time (host resolved, every answer). */
export async function checkDestination(
  ctx: ActorContext,
  url: URL,
  what: string,
  kind: "http" | "git" = "http",
): Promise<void> {
  await ctx.destinations?.check(url.toString(), what, kind);
}

/** For a stored row: what the policy refuses about its URL today (no DNS), or null. */
export function addressProblem(
  ctx: ActorContext,
  url: string,
  what: string,
  kind: "http" | "git" = "http",
): string | null {
  return ctx.destinations?.problem(url, what, kind) ?? null;
}
