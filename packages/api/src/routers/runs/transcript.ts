// Every member: the run's live transcript over SSE (httpSubscriptionLink). Authorized through
// the domain layer (getRun: a run of another workspace is NOT_FOUND, P05) before anything
// streams, and again (session and membership) as soon as the viewer's access changes (the
// listener's access notifications: a removed member or an ended session stops receiving within
// a second), and before sending once the last check is older than `streamReauthorizeMs` (a
// session that simply expired, a missed notification). Then the stored
// events after `lastEventId` and the new ones, each tracked by its seq, so a reconnecting
// client (Last-Event-ID) continues exactly where it was. Ends after the final status event.
// The run page reads the history through runs.transcriptPage and subscribes with `lastEventId`
// set to the newest seq it holds, so a connect replays nothing the page already has.
import { getRun } from "@secondshift/domain";
import { resolveSession } from "@secondshift/accounts";
import { AppError, isAppError } from "@secondshift/errors";
import { tracked, TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Context } from "../../context.ts";
import { toTRPCError } from "../../errors.ts";
import type { RunEventListener } from "../../run-events/listener.ts";
import { runTranscript } from "../../run-events/transcript.ts";
import { workspaceProcedure, type WorkspaceActorContext } from "../../trpc.ts";

const DEFAULT_REAUTHORIZE_MS = 60_000;

export const transcriptInput = z.object({
  runId: z.uuid(),
  /** The seq of the last event the client has; tRPC fills it from Last-Event-ID on reconnect. */
  lastEventId: z
    .string()
    .regex(/^\d{1,9}$/)
    .nullish(),
});

/** The checks of the first request, repeated inside a running stream. */
async function stillAllowed(ctx: Context & { workspace: WorkspaceActorContext }, runId: string) {
  const session = await resolveSession(ctx.deps.accounts, ctx.sessionToken);
  if (session?.userId !== ctx.workspace.actor.userId) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  }
  await getRun(ctx.workspace, { runId }).catch((e: unknown) => {
    throw isAppError(e) ? toTRPCError(e) : e;
  });
}

export const transcript = workspaceProcedure
  .input(transcriptInput)
  .subscription(async ({ ctx, input, signal }) => {
    const listener = ctx.deps.runEvents;
    if (!listener) {
      throw new AppError("INTERNAL", "Live transcripts are not available on this server.", {
        reason: "RUN_EVENTS_NOT_WIRED",
      });
    }
    // Watching before the first check: a change between the two still wakes the watch.
    const revoked = watchAccess(ctx, listener, input.runId, signal);
    await getRun(ctx.workspace, { runId: input.runId }).catch((error: unknown) => {
      revoked.stop();
      throw error;
    });
    const reauthorizeMs = ctx.deps.streamReauthorizeMs ?? DEFAULT_REAUTHORIZE_MS;
    const events = runTranscript({
      db: ctx.workspace.db,
      listener,
      run: { id: input.runId, workspaceId: ctx.workspace.workspaceId },
      afterSeq: input.lastEventId == null ? -1 : Number(input.lastEventId),
      signal: revoked.signal,
    });
    return (async function* () {
      try {
        let checkedAt = Date.now();
        for await (const event of events) {
          revoked.throwIfRefused();
          if (Date.now() - checkedAt >= reauthorizeMs) {
            await stillAllowed(ctx, input.runId);
            checkedAt = Date.now();
          }
          yield tracked(String(event.seq), event);
        }
        revoked.throwIfRefused();
      } finally {
        revoked.stop();
      }
    })();
  });

/**
 * Re-checks the viewer at every access notification for them; on a refusal, aborts the
 * returned signal (which ends the transcript's wait) and keeps the refusal for the stream to
 * throw.
 */
function watchAccess(
  ctx: Context & { workspace: WorkspaceActorContext },
  listener: RunEventListener,
  runId: string,
  request: AbortSignal | undefined,
) {
  const ended = new AbortController();
  const signal = request ? AbortSignal.any([request, ended.signal]) : ended.signal;
  const watch = listener.watchAccess(ctx.workspace.actor.userId);
  // What stillAllowed threw: a TRPCError (UNAUTHORIZED, NOT_FOUND) or an unexpected Error.
  let refusal: Error | undefined;
  void (async () => {
    while (!signal.aborted) {
      await watch.next(signal);
      if (signal.aborted) return;
      await stillAllowed(ctx, runId).catch((error: unknown) => {
        refusal = error instanceof Error ? error : new Error(String(error));
        ended.abort();
      });
    }
  })().finally(() => watch.close());
  return {
    signal,
    throwIfRefused() {
      if (refusal !== undefined) throw refusal;
    },
    stop: () => ended.abort(),
  };
}
