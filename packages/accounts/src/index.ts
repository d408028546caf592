export { createAccountsDeps, defaultSessionPolicy, normaliseEmail } from "./deps.ts";
export { createPasswordWork } from "./password-work.ts";
export type { PasswordWork, PasswordWorkOptions } from "./password-work.ts";
export type { AccountsDeps, SessionPolicy } from "./deps.ts";
export {
  createAuthCallLimiter,
  createLoginRateLimiter,
  defaultAuthCallLimit,
  defaultLoginRateLimit,
} from "./rate-limit.ts";
export type {
  AuthCallLimiter,
  AuthCallLimitPolicy,
  LoginRateLimiter,
  LoginRateLimitPolicy,
} from "./rate-limit.ts";
export {
  listSessions,
  resolveSession,
  revokeSession,
  signOut,
  signOutEverywhere,
} from "./sessions.ts";
export type { IssuedSession, ResolvedSession, SessionClient, SessionSummary } from "./sessions.ts";
export { signIn } from "./sign-in.ts";
export type { SignedIn, SignInInput } from "./sign-in.ts";
export { needsSetup, setup } from "./setup.ts";
export type { SetupInput, SetupOptions, SetupResult } from "./setup.ts";
export { changePassword } from "./password.ts";
export type { ChangePasswordInput } from "./password.ts";
export { acceptInvitation } from "./invitations.ts";
export type { AcceptedInvitation, AcceptInvitationInput, Invitee } from "./invitations.ts";
export { getMe, membershipRole } from "./users.ts";
export type { Me } from "./users.ts";
export { previewInvitation } from "./invitation-preview.ts";
export type { InvitationPreview, InvitationState } from "./invitation-preview.ts";
