// Every member: the outputs a run proposed, in order, with their states.
import { listRunOutputs } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { output } from "./fields.ts";

export const list = workspaceProcedure
  .input(z.object({ runId: id }))
  .output(z.array(output))
  .query(({ ctx, input }) => listRunOutputs(ctx.workspace, input));
