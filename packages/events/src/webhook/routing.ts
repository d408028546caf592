// The two fields a delivery is routed by, read before anything else of the body: which
// repository it names and through which App installation it came.
import { name, numericId, object } from "../deliveries/shape.ts";

export interface Routing {
  repositoryFullName: string | null;
  installationId: string | null;
}

export function routingOf(payload: unknown): Routing {
  const p = object(payload);
  return {
    repositoryFullName: name(object(p?.repository)?.full_name) ?? null,
    installationId: numericId(object(p?.installation)?.id) ?? null,
  };
}

/** GitHub's owner/name compare without case. */
export const sameRepository = (a: string | null, b: string): boolean =>
  a !== null && a.toLowerCase() === b.toLowerCase();
