// First run: while no user exists, create the first user, a workspace and its OWNER membership
// in one transaction. A transaction-scoped advisory lock serialises concurrent setups, so of
// two at once exactly one succeeds and the other gets a clean CONFLICT.
import { createHash, timingSafeEqual } from "node:crypto";
import { recordAudit } from "@secondshift/domain";
import { workspaceSlug } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { normaliseEmail, type AccountsDeps, type DbClient } from "./deps.ts";
import { createSession, type IssuedSession, type SessionClient } from "./sessions.ts";

// An arbitrary constant naming "first-run setup" among the advisory locks.
const SETUP_LOCK_KEY = 5_230_417_001;

export interface SetupInput {
  email: string;
  name: string;
  password: string;
  workspaceName: string;
  setupToken?: string | undefined;
  /** The browser that signs in (User-Agent, address), kept on the new session. */
  client?: SessionClient;
}

export interface SetupOptions {
  /** The one-time token the web service printed at start; null when the operator waived it. */
  expectedSetupToken: string | null;
}

export interface SetupResult extends IssuedSession {
  userId: string;
  workspaceId: string;
}

/** Whether first-run setup is still open (no user exists yet). */
export async function needsSetup(db: DbClient): Promise<boolean> {
  return (await db.user.count()) === 0;
}

function sameSecret(presented: string, expected: string): boolean {
  // Hashing first makes the comparison constant time whatever the lengths.
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function checkSetupToken(presented: string | undefined, options: SetupOptions): void {
  if (options.expectedSetupToken === null) return;
  if (presented === undefined || !sameSecret(presented, options.expectedSetupToken)) {
    throw new AppError(
      "FORBIDDEN",
      "The setup link is missing or wrong. Open the setup link the web service printed at start.",
      { reason: "SETUP_TOKEN_INVALID" },
    );
  }
}

function alreadySetUp(): AppError {
  return new AppError("CONFLICT", "SecondShift is already set up. Sign in instead.", {
    reason: "ALREADY_SET_UP",
  });
}

export async function setup(
  deps: AccountsDeps,
  input: SetupInput,
  options: SetupOptions,
): Promise<SetupResult> {
  checkSetupToken(input.setupToken, options);
  // Before the hash: once an account exists, setup is closed for good, and a call that would be
  // refused must not cost an argon2id hash (an unauthenticated CPU drain otherwise).
  if (!(await needsSetup(deps.db))) throw alreadySetUp();
  // Hash outside the transaction: argon2id is slow and must not hold the lock.
  const passwordHash = await deps.passwords.hash(input.password);
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK_KEY}::bigint)`;
    if (!(await needsSetup(tx))) throw alreadySetUp();
    const user = await tx.user.create({
      data: { email: normaliseEmail(input.email), name: input.name.trim(), passwordHash },
      select: { id: true },
    });
    const workspace = await tx.workspace.create({
      data: { name: input.workspaceName.trim(), slug: workspaceSlug(input.workspaceName) },
      select: { id: true },
    });
    const membership = await tx.membership.create({
      data: { workspaceId: workspace.id, userId: user.id, role: "OWNER" },
      select: { id: true },
    });
    const actor = { workspaceId: workspace.id, actorType: "USER", actorId: user.id } as const;
    await recordAudit(tx, {
      ...actor,
      action: "workspace.created",
      targetType: "Workspace",
      targetId: workspace.id,
      targetLabel: input.workspaceName.trim(),
    });
    await recordAudit(tx, {
      ...actor,
      action: "member.joined",
      targetType: "Membership",
      targetId: membership.id,
      targetLabel: input.name.trim() || normaliseEmail(input.email),
      outcome: "first_run_setup",
    });
    const session = await createSession(tx, user.id, deps.now(), deps.sessions, input.client);
    return { ...session, userId: user.id, workspaceId: workspace.id };
  });
}
