// Sign-in: rate limit first, then one argon2id verify on every path — against a dummy hash when
// the email is unknown, so an unknown email costs the same as a wrong password and the answer
// is the same. A fresh session token every time: a token planted before sign-in never becomes
// a session (no fixation).
import { AppError } from "@secondshift/errors";
import { normaliseEmail, type AccountsDeps } from "./deps.ts";
import { dummyPasswordHash } from "./dummy-hash.ts";
import { createSession, type IssuedSession } from "./sessions.ts";

export interface SignInInput {
  email: string;
  password: string;
  clientAddress: string;
  /** The browser's User-Agent header, kept on the session to name its device. */
  userAgent?: string | null;
}

export interface SignedIn extends IssuedSession {
  userId: string;
}

export async function signIn(deps: AccountsDeps, input: SignInInput): Promise<SignedIn> {
  const email = normaliseEmail(input.email);
  await deps.limiter.consume(email, input.clientAddress);
  const user = await deps.db.user.findUnique({
    where: { email },
    select: { id: true, passwordHash: true },
  });
  const storedHash = user?.passwordHash ?? (await dummyPasswordHash());
  const matches = await deps.passwords.verify(storedHash, input.password);
  if (!user || !matches) {
    throw new AppError("UNAUTHORIZED", "The email or password is wrong. Check both and retry.", {
      reason: "INVALID_CREDENTIALS",
    });
  }
  await deps.limiter.succeeded(email);
  const session = await createSession(deps.db, user.id, deps.now(), deps.sessions, {
    userAgent: input.userAgent ?? null,
    address: input.clientAddress,
  });
  return { ...session, userId: user.id };
}
