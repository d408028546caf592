// Owner: revoke a job's grant; its running runs stop at their next tool call (C06).
import { revokeGrant as revokeGrantUseCase } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const revokeGrant = workspaceProcedure
  .input(z.object({ grantId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) => revokeGrantUseCase(ctx.workspace, input));
