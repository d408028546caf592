// Owner: list the connection's tools now, from the server (through netguard, with the stored
// credential), and store them for the allowed-tools checklist. Returns each tool with its
// data-changing mark and whether it is allowed.
import { discoverConnectionTools } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { connectionTool } from "./fields.ts";

export const discover = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(z.object({ tools: z.array(connectionTool) }))
  .mutation(({ ctx, input }) =>
    discoverConnectionTools(ctx.workspace, { connectionId: input.connectionId }),
  );
