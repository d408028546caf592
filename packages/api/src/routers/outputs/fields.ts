// Output shapes of the outputs area: what a run proposed, its state and, when applied, the link
// to it on GitHub — never a token.
import { OUTPUT_KINDS, OUTPUT_STATES } from "@secondshift/vocabulary";
import { z } from "zod";
import { id } from "../fields.ts";

export const outputInput = z.object({ outputId: id });

export const outputState = z.enum(OUTPUT_STATES);

export const output = z.object({
  id: z.string(),
  runId: z.string(),
  seq: z.number(),
  kind: z.enum(OUTPUT_KINDS),
  state: outputState,
  title: z.string().nullable(),
  body: z.string(),
  number: z.number().nullable(),
  labels: z.array(z.string()),
  reason: z.string().nullable(),
  resultUrl: z.string().nullable(),
  proposedAt: z.date(),
  decidedAt: z.date().nullable(),
  decidedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  appliedAt: z.date().nullable(),
});

export const waitingOutput = output.extend({
  job: z.object({ id: z.string(), name: z.string() }),
});

export const decision = z.object({ state: outputState });
