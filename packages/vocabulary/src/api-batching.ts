// How the owner API takes batched calls (tRPC's `?batch=1`, procedures joined by commas), shared
// by the API's guard and the web app's client so the client never sends what the API refuses.
// Batches are capped, and auth calls (sign-in, setup, invitations: unauthenticated, each may cost
// an argon2id hash) are never batched, so one request costs at most one hash.

/** The most calls one batched request may carry. */
export const MAX_BATCH_CALLS = 20;

/** Whether a procedure must be called alone (auth.signIn, auth.setup, auth.invitations.accept …). */
export function mustCallAlone(path: string): boolean {
  return path === "auth" || path.startsWith("auth.");
}
