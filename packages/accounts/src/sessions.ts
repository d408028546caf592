// Sessions: an opaque bearer token in a cookie, only its SHA-256 stored. `expiresAt` holds the
// sliding idle deadline; the absolute end is `createdAt + absoluteMs`. The idle deadline is
// pushed forward on use, but written at most once a minute so reads stay reads.
import { hashToken, looksLikeToken, mintToken } from "@secondshift/crypto";
import { notifyAccessChanged } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { AccountsDeps, DbClient, SessionPolicy } from "./deps.ts";

const REFRESH_STEP_MS = 60_000;

export interface IssuedSession {
  sessionId: string;
  /** The cookie value. Shown once; never stored or logged. */
  token: string;
}

export interface ResolvedSession {
  sessionId: string;
  userId: string;
}

/** Who signed in from where: shown to the user in "Your sessions", never used to decide. */
export interface SessionClient {
  userAgent?: string | null;
  address?: string | null;
}

const MAX_USER_AGENT = 512;

export async function createSession(
  db: DbClient,
  userId: string,
  now: Date,
  policy: SessionPolicy,
  client: SessionClient = {},
): Promise<IssuedSession> {
  const { token, hash } = mintToken("session");
  const session = await db.session.create({
    data: {
      userId,
      tokenHash: hash,
      userAgent: client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      clientAddress: client.address ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + Math.min(policy.idleMs, policy.absoluteMs)),
    },
    select: { id: true },
  });
  return { sessionId: session.id, token };
}

/** The session a cookie value names, or null when it is unknown, revoked or expired. */
export async function resolveSession(
  deps: AccountsDeps,
  token: string | undefined,
): Promise<ResolvedSession | null> {
  if (!token || !looksLikeToken("session", token)) return null;
  const session = await deps.db.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, userId: true, createdAt: true, expiresAt: true, revokedAt: true },
  });
  if (!session || session.revokedAt) return null;
  const now = deps.now().getTime();
  const absoluteEnd = session.createdAt.getTime() + deps.sessions.absoluteMs;
  if (now >= session.expiresAt.getTime() || now >= absoluteEnd) return null;
  const nextIdleEnd = Math.min(now + deps.sessions.idleMs, absoluteEnd);
  if (nextIdleEnd - session.expiresAt.getTime() >= REFRESH_STEP_MS) {
    await deps.db.session.updateMany({
      where: { id: session.id, revokedAt: null },
      data: { expiresAt: new Date(nextIdleEnd) },
    });
  }
  return { sessionId: session.id, userId: session.userId };
}

export async function signOut(deps: AccountsDeps, token: string | undefined): Promise<void> {
  if (!token || !looksLikeToken("session", token)) return;
  const ended = await deps.db.session.updateManyAndReturn({
    where: { tokenHash: hashToken(token), revokedAt: null },
    data: { revokedAt: deps.now() },
    select: { userId: true },
  });
  // Live streams opened with this session end at once, not at their next periodic check.
  for (const { userId } of ended) await notifyAccessChanged(deps.db, userId);
}

/** Ends every session of the user, this one included. Returns how many ended. */
export async function signOutEverywhere(deps: AccountsDeps, userId: string): Promise<number> {
  const { count } = await deps.db.session.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
  await notifyAccessChanged(deps.db, userId);
  return count;
}

export interface SessionSummary {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  current: boolean;
  userAgent: string | null;
  clientAddress: string | null;
}

/** The user's own live sessions, newest first. Never a token or a hash. */
export async function listSessions(
  deps: AccountsDeps,
  current: ResolvedSession,
): Promise<SessionSummary[]> {
  const now = deps.now();
  const sessions = await deps.db.session.findMany({
    where: {
      userId: current.userId,
      revokedAt: null,
      expiresAt: { gt: now },
      createdAt: { gt: new Date(now.getTime() - deps.sessions.absoluteMs) },
    },
    select: { id: true, createdAt: true, expiresAt: true, userAgent: true, clientAddress: true },
    orderBy: { createdAt: "desc" },
  });
  return sessions.map((s) => ({ ...s, current: s.id === current.sessionId }));
}

/** Ends one of the user's own sessions; another user's session id behaves as not found. */
export async function revokeSession(
  deps: AccountsDeps,
  userId: string,
  sessionId: string,
): Promise<void> {
  const { count } = await deps.db.session.updateMany({
    where: { id: sessionId, userId, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
  if (count > 0) await notifyAccessChanged(deps.db, userId);
  if (count === 0) {
    throw new AppError("NOT_FOUND", "That session was not found; it may have ended already.", {
      reason: "SESSION_NOT_FOUND",
    });
  }
}
