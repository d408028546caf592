// Every member: webhooks with their filters — never the URL or the secret.
import { listWebhooks } from "@secondshift/domain";
import { z } from "zod";
import { runStatus } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const list = workspaceProcedure
  .output(
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        jobKeys: z.array(z.string()),
        statuses: z.array(runStatus),
        enabled: z.boolean(),
        createdAt: z.date(),
        addressProblem: z.string().nullable(),
      }),
    ),
  )
  .query(({ ctx }) => listWebhooks(ctx.workspace, {}));
