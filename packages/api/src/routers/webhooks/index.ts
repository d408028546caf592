import { router } from "../../trpc.ts";
import { redeliver } from "./redeliver.ts";

export const webhooksRouter = router({ redeliver });
