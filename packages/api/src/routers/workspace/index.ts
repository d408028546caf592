import { router } from "../../trpc.ts";
import { get } from "./get.ts";
import { update } from "./update.ts";

export const workspaceRouter = router({ get, update });
