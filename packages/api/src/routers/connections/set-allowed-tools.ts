// Owner: the checklist of discovered tools jobs may use on this connection.
import { setAllowedTools as setAllowedToolsUseCase } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const setAllowedTools = workspaceProcedure
  .input(z.object({ connectionId: id, tools: z.array(z.string().min(1).max(200)).max(1000) }))
  .output(z.array(z.string()))
  .mutation(({ ctx, input }) => setAllowedToolsUseCase(ctx.workspace, input));
