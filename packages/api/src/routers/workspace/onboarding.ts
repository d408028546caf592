// Every member: the getting-started counts of the overview's checklist.
import { getOnboarding } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";

const count = z.number().int().nonnegative();

export const onboarding = workspaceProcedure
  .output(
    z.object({
      providers: count,
      repositories: count,
      connections: count,
      approvedJobs: count,
      jobsWaiting: count,
      webhooks: count,
      deliveries: count,
    }),
  )
  .query(({ ctx }) => getOnboarding(ctx.workspace, {}));
