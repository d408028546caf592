// The API's root router. Workspace areas (jobs, runs, connections, …) join here as they land.
import { authRouter } from "./routers/auth/index.ts";
import { runsRouter } from "./routers/runs/index.ts";
import { router } from "./trpc.ts";

export const appRouter = router({ auth: authRouter, runs: runsRouter });

export type AppRouter = typeof appRouter;
