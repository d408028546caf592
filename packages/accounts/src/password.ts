// Password change: the current password proves it is the user (not only a stolen cookie);
// every session ends, and a fresh one is issued for the browser that made the change.
import { notifyAccessChanged } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { AccountsDeps } from "./deps.ts";
import { createSession, type IssuedSession, type SessionClient } from "./sessions.ts";

export interface ChangePasswordInput {
  userId: string;
  currentPassword: string;
  newPassword: string;
  /** The browser that signs in (User-Agent, address), kept on the new session. */
  client?: SessionClient;
}

export async function changePassword(
  deps: AccountsDeps,
  input: ChangePasswordInput,
): Promise<IssuedSession> {
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: input.userId },
    select: { passwordHash: true },
  });
  if (!(await deps.passwords.verify(user.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "The current password is wrong. Type it again.", {
      reason: "CURRENT_PASSWORD_WRONG",
    });
  }
  const passwordHash = await deps.passwords.hash(input.newPassword);
  return deps.db.$transaction(async (tx) => {
    const now = deps.now();
    await tx.user.update({ where: { id: input.userId }, data: { passwordHash } });
    await tx.session.updateMany({
      where: { userId: input.userId, revokedAt: null },
      data: { revokedAt: now },
    });
    await notifyAccessChanged(tx, input.userId);
    return createSession(tx, input.userId, now, deps.sessions, input.client);
  });
}
