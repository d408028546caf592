// The API's root router: the account procedures and one router per domain area (each
// procedure a one-line call of a packages/domain use case).
import { auditRouter } from "./routers/audit/index.ts";
import { authRouter } from "./routers/auth/index.ts";
import { connectionsRouter } from "./routers/connections/index.ts";
import { jobsRouter } from "./routers/jobs/index.ts";
import { membersRouter } from "./routers/members/index.ts";
import { outputsRouter } from "./routers/outputs/index.ts";
import { providersRouter } from "./routers/providers/index.ts";
import { repositoriesRouter } from "./routers/repositories/index.ts";
import { runsRouter } from "./routers/runs/index.ts";
import { webhooksRouter } from "./routers/webhooks/index.ts";
import { workspaceRouter } from "./routers/workspace/index.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  auth: authRouter,
  jobs: jobsRouter,
  runs: runsRouter,
  outputs: outputsRouter,
  connections: connectionsRouter,
  repositories: repositoriesRouter,
  webhooks: webhooksRouter,
  members: membersRouter,
  providers: providersRouter,
  audit: auditRouter,
  workspace: workspaceRouter,
});

export type AppRouter = typeof appRouter;
