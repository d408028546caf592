// Owner or admin: whether events from people without write access may start this job (their
// runs' outputs are then always held for approval).
import { setOutsiderEvents as setOutsiderEventsUseCase } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const setOutsiderEvents = workspaceProcedure
  .input(z.object({ jobId: id, allow: z.boolean() }))
  .output(z.object({ allowOutsiderEvents: z.boolean() }))
  .mutation(({ ctx, input }) =>
    setOutsiderEventsUseCase(ctx.workspace, { jobId: input.jobId, allow: input.allow }),
  );
