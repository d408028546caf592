import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { get } from "./get.ts";
import { onboarding } from "./onboarding.ts";
import { update } from "./update.ts";

export const workspaceRouter = router({ get, update, create, onboarding });
