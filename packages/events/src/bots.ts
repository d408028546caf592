// Who sent a delivery, as the intake decides whether it counts (E03).
//
// SecondShift's own App never starts a run, whatever a trigger says (no loops: a comment our
// App posts must not run the job that posted it). A delivery is our App's when its sender is a
// Bot and the object's `performed_via_github_app.id` is the appId of one of the workspace's
// GitHub App connections, or when the sender's login is `<appSlug>[bot]` for one that has an
// `appSlug` in its settings. Every App connection of the workspace counts, not only the one the
// delivery came through: any of them may have written to the repository.
//
// Other bots (Dependabot, Renovate, another App) count only where the trigger says `bots: true`.
import type { Delivery } from "./deliveries/types.ts";
import { name, numericId, object } from "./deliveries/shape.ts";

export interface AppIdentity {
  appId: string | null;
  appSlug: string | null;
}

/** The App identity in a GitHub App connection's settings (non-secret). */
export function appIdentity(settings: unknown): AppIdentity {
  const s = object(settings);
  return { appId: numericId(s?.appId) ?? null, appSlug: name(s?.appSlug) ?? null };
}

export function isOwnApp(d: Pick<Delivery, "actor" | "viaAppId">, apps: AppIdentity[]): boolean {
  const login = d.actor.login.toLowerCase();
  return apps.some(
    (app) =>
      (d.actor.isBot && app.appId !== null && d.viaAppId === app.appId) ||
      (app.appSlug !== null && login === `${app.appSlug.toLowerCase()}[bot]`),
  );
}

export type SenderVerdict = "counts" | "own_app" | "bot";

export function senderVerdict(
  d: Pick<Delivery, "actor" | "viaAppId">,
  apps: AppIdentity[],
  botsAllowed: boolean,
): SenderVerdict {
  if (isOwnApp(d, apps)) return "own_app";
  if (d.actor.isBot && !botsAllowed) return "bot";
  return "counts";
}
