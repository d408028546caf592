// tRPC's building blocks: superjson, our error shape, and the three procedure kinds.
// - publicProcedure: anyone (setup, sign-in, accepting an invitation).
// - authedProcedure: a valid session is required (UNAUTHORIZED otherwise).
// - workspaceProcedure: input carries `workspaceId`; the membership is resolved once and an
//   actor context `ctx.workspace` (the domain layer's ActorContext: db, actor, workspaceId,
//   services, keyring, discovery, outbound, clock; plus the role) is put on ctx and passed to the use case as is.
//   A workspace the user is not a member of behaves as not found (P05); the use case's own
//   requireRole decides the rest.
import { membershipRole } from "@secondshift/accounts";
import type { ActorContext } from "@secondshift/domain";
import type { Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import type { Context } from "./context.ts";
import { formatError, mappedError } from "./errors.ts";

/**
 * Live transcripts (SSE) can sit idle for minutes while an agent thinks; reverse proxies and
 * load balancers cut a silent connection after ~60 s (nginx's proxy_read_timeout, AWS ALB's idle
 * timeout). A ping comment every 10 s keeps it open, and a client that hears nothing for three
 * pings' worth reconnects (and resumes from Last-Event-ID) instead of waiting on a dead socket.
 */
export const SSE_PING_INTERVAL_MS = 10_000;
export const SSE_CLIENT_RECONNECT_AFTER_MS = 3 * SSE_PING_INTERVAL_MS;

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter: formatError,
  isDev: false,
  sse: {
    ping: { enabled: true, intervalMs: SSE_PING_INTERVAL_MS },
    client: { reconnectAfterInactivityMs: SSE_CLIENT_RECONNECT_AFTER_MS },
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every procedure passes here: an AppError thrown below becomes its tRPC code. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = mappedError(result.error);
    if (mapped) throw mapped;
  }
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

/**
 * Calls anyone may make that do real work (a password hash, a token look-up): counted per client
 * address and overall before they run (sign-in, setup, invitations).
 */
export const rateLimitedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await ctx.deps.accounts.authCalls.consume(ctx.request.clientAddress);
  return next();
});

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  }
  return next({ ctx: { session: ctx.session } });
});

/** The domain layer's ActorContext plus the role, for procedures that shape their output. */
export interface WorkspaceActorContext extends ActorContext {
  role: Role;
}

export const workspaceInput = z.object({ workspaceId: z.uuid() });

export const workspaceProcedure = authedProcedure
  .input(workspaceInput)
  .use(async ({ ctx, input, next }) => {
    const role = await membershipRole(ctx.deps.accounts, ctx.session.userId, input.workspaceId);
    if (!role) {
      throw new AppError("NOT_FOUND", "Workspace was not found.", {
        reason: "WORKSPACE_NOT_FOUND",
      });
    }
    const workspace: WorkspaceActorContext = {
      db: ctx.db,
      actor: { userId: ctx.session.userId },
      workspaceId: input.workspaceId,
      role,
      now: ctx.deps.accounts.now,
      ...(ctx.deps.services ? { services: ctx.deps.services } : {}),
      ...(ctx.deps.keyring ? { keyring: ctx.deps.keyring } : {}),
      ...(ctx.deps.discovery ? { discovery: ctx.deps.discovery } : {}),
      ...(ctx.deps.outbound ? { outbound: ctx.deps.outbound } : {}),
      ...(ctx.deps.mcpOAuth ? { mcpOAuth: ctx.deps.mcpOAuth } : {}),
      ...(ctx.deps.destinations ? { destinations: ctx.deps.destinations } : {}),
      ...(ctx.deps.maxTokenBudget === undefined ? {} : { maxTokenBudget: ctx.deps.maxTokenBudget }),
    };
    return next({ ctx: { workspace } });
  });
