// Every member: the run's live transcript over SSE (httpSubscriptionLink). Authorized once per
// connection through the domain layer (getRun: a run of another workspace is NOT_FOUND, P05)
// before anything streams; then the stored events after `lastEventId`, and the new ones, each
// tracked by its seq, so a reconnecting client (Last-Event-ID) continues exactly where it was.
// The stream ends after the run's final status event.
import { getRun } from "@secondshift/access";
import { AppError } from "@secondshift/errors";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { runTranscript } from "../../run-events/transcript.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const transcriptInput = z.object({
  runId: z.uuid(),
  /** The seq of the last event the client has; tRPC fills it from Last-Event-ID on reconnect. */
  lastEventId: z
    .string()
    .regex(/^\d{1,9}$/)
    .nullish(),
});

export const transcript = workspaceProcedure
  .input(transcriptInput)
  .subscription(async ({ ctx, input, signal }) => {
    const listener = ctx.deps.runEvents;
    if (!listener) {
      throw new AppError("INTERNAL", "Live transcripts are not available on this server.", {
        reason: "RUN_EVENTS_NOT_WIRED",
      });
    }
    await getRun(ctx.workspace, { runId: input.runId });
    const events = runTranscript({
      db: ctx.workspace.db,
      listener,
      run: { id: input.runId, workspaceId: ctx.workspace.workspaceId },
      afterSeq: input.lastEventId == null ? -1 : Number(input.lastEventId),
      signal,
    });
    return (async function* () {
      for await (const event of events) yield tracked(String(event.seq), event);
    })();
  });
