// Who is acting, in which workspace, with which mechanisms. Every use case is
// `(ctx: ActorContext, input)` and starts with `requireRole(ctx, need)` — the only place that
// decides who may do what. A workspace the actor is not a member of, and every id from another
// workspace, behaves as not found (P05): nothing leaks existence.
import type { Keyring } from "@secondshift/crypto";
import type { Db, Prisma, Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { can, type Permission } from "@secondshift/vocabulary";
import type { DiscoveredTool } from "./tools.ts";

export type DbClient = Db | Prisma.TransactionClient;

export interface Actor {
  userId: string;
}

/**
 * The queue mechanisms a use case may need. Declared here and implemented by
 * `@secondshift/scheduler` (`createWorkspaceServices`), so the domain never imports a queue.
 */
export interface WorkspaceServices {
  /** Puts an already inserted QUEUED run on the run queue (idempotent). */
  enqueueRun(run: { runId: string; workspaceId: string }): Promise<void>;
  /** Converges the workspace's schedules to the database (after pause / resume). */
  syncSchedules(workspaceId: string): Promise<void>;
  /** Queues a sync of one repository (deduplicated per repository). */
  requestSync(target: { workspaceId: string; repositoryId: string }): Promise<void>;
  /** Puts an approved or ready output on the outputs queue (idempotent per output). */
  enqueueOutputApply?(output: { outputId: string; workspaceId: string }): Promise<void>;
}

/**
 * Asks a connection's service which tools it offers, with the connection's decrypted credential
 * (OAuth refreshed when expired), through netguard. Implemented by `@secondshift/broker`
 * (`createToolDiscovery`), the same code the worker uses, so the domain never decrypts a
 * connection credential itself (C25).
 */
export interface ToolDiscovery {
  discover(connection: { workspaceId: string; connectionId: string }): Promise<DiscoveredTool[]>;
}

/**
 * What an MCP OAuth authorization reads and saves while it runs (the SDK's store callbacks),
 * kept by the use case: it encrypts what must survive until the callback.
 */
export interface McpOAuthSession {
  clientInformation?: Record<string, unknown>;
  codeVerifier?: string;
  discoveryState?: Record<string, unknown>;
  tokens?: { access_token: string; refresh_token?: string; expires_in?: number };
}

/**
 * OAuth 2.1 for MCP servers (PKCE S256, RFC 9728 discovery, dynamic client registration),
 * through netguard. Implemented by `@secondshift/connectors` (`createMcpAuthorizer`).
 */
export interface McpAuthorizer {
  /** Discovers, registers if needed, and returns where to send the owner (null: no auth asked). */
  begin(input: {
    endpoint: string;
    redirectUrl: string;
    state: string;
    session: McpOAuthSession;
  }): Promise<string | null>;
  /** Exchanges the callback's code (with the session's PKCE verifier); tokens land in session. */
  finish(input: {
    endpoint: string;
    redirectUrl: string;
    code: string;
    session: McpOAuthSession;
  }): Promise<void>;
}

/**
 * The save-time check of an owner's URL under the operator's outbound policy (C21): netguard's
 * `createDestinationChecker`, built by the app from the same policy its send-time guard uses.
 * "git" is a clone URL (decided as repo-sync's fetch-time check does), "http" everything else.
 */
export interface DestinationCheck {
  /** Throws an AppError naming the rule and the remedy; resolves the host (every answer checked). */
  check(url: string, what: string, kind?: "http" | "git"): Promise<void>;
  /** For stored rows: the rules that need no DNS; the problem in words, or null. */
  problem(url: string, what: string, kind?: "http" | "git"): string | null;
}

/** A WHATWG fetch whose every request goes through netguard (C21); the app builds it. */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface ActorContext {
  db: Db;
  actor: Actor;
  workspaceId: string;
  /** Needed by run now, pause / resume and sync now. */
  services?: WorkspaceServices;
  /** Needed by use cases that store a credential (createConnection). */
  keyring?: Keyring;
  /** Needed by tool discovery (discoverConnectionTools). */
  discovery?: ToolDiscovery;
  /** Needed by use cases that call an owner's service themselves (verifyModelProvider). */
  outbound?: OutboundFetch;
  /**
   * Checks owner URLs at save (webhooks, providers, connections, repositories). The web process
   * always wires it; without it only the send-time guard decides (tests that seed rows).
   */
  destinations?: DestinationCheck;
  /** Needed by the OAuth connection flow (startConnectionOAuth, finishConnectionOAuth). */
  mcpOAuth?: McpAuthorizer;
  /** The operator's cap on a run's token budget (RUN_MAX_TOKEN_BUDGET); default the absolute cap. */
  maxTokenBudget?: number;
  /** The clock for stored deadlines (invitation expiry); default the system clock. */
  now?: () => Date;
}

export const nowOf = (ctx: ActorContext): Date => (ctx.now ? ctx.now() : new Date());

/**
 * What a use case needs: one of the vocabulary's closed set of permissions (C02), the same
 * table the screens ask with `can(role, permission)`.
 */
export type Need = Permission;

const whoCan: Record<Need, string> = {
  read: "Only members of this workspace can see this.",
  operate: "Only a workspace owner or admin can do this; ask one of them.",
  own: "Only a workspace owner can do this; ask the workspace owner.",
};

/** The one "not found" error: a missing row and a row of another workspace look the same. */
export function notFound(what: string): AppError {
  return new AppError("NOT_FOUND", `${what} was not found in this workspace.`, {
    reason: `${what.toUpperCase().replace(/\s+/g, "_")}_NOT_FOUND`,
  });
}

/** Refuses unless the actor is a member whose role covers `need`; returns that role. */
export async function requireRole(ctx: ActorContext, need: Need): Promise<Role> {
  const membership = await ctx.db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: ctx.workspaceId, userId: ctx.actor.userId } },
    select: { role: true },
  });
  if (!membership) throw notFound("Workspace");
  if (!can(membership.role, need)) {
    throw new AppError("FORBIDDEN", whoCan[need], { reason: "ROLE_NOT_ALLOWED" });
  }
  return membership.role;
}

/** A mechanism the caller must have wired; missing means a wiring bug, not a user error. */
export function requireService<
  K extends "services" | "keyring" | "discovery" | "outbound" | "mcpOAuth",
>(ctx: ActorContext, key: K): NonNullable<ActorContext[K]> {
  const value = ctx[key];
  if (value === undefined) {
    throw new AppError(
      "INTERNAL",
      "This action is not available here; the server is missing a part.",
      {
        reason: `${key.toUpperCase()}_NOT_WIRED`,
      },
    );
  }
  return value;
}
