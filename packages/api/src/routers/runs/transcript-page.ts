// Every member: one page of a run's stored transcript — the newest events without a cursor,
// then the ones before `cursor` (a seq). The run page shows the latest page at once and loads
// older ones on scroll; runs.transcript streams what comes after the newest seq it holds.
// Authorized exactly like runs.get (a run of another workspace is NOT_FOUND).
import type { Prisma } from "@secondshift/db";
import { readTranscriptPage, TRANSCRIPT_PAGE_MAX } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** A stored payload, as written (JSON from the database): read by the client's vocabulary. */
const storedPayload = z.custom<Prisma.JsonValue>(() => true);

export const transcriptPageOutput = z.object({
  events: z.array(
    z.object({ seq: z.number(), type: z.string(), payload: storedPayload, createdAt: z.date() }),
  ),
  nextCursor: z.number().nullable(),
});

export const transcriptPage = workspaceProcedure
  .input(
    z.object({
      runId: id,
      /** Events before this seq (tRPC's infinite queries name it `cursor`); none: the newest. */
      cursor: z.number().int().min(0).nullish(),
      limit: z.number().int().min(1).max(TRANSCRIPT_PAGE_MAX).default(200),
    }),
  )
  .output(transcriptPageOutput)
  .query(({ ctx, input }) => readTranscriptPage(ctx.workspace, input));
