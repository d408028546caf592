import { router } from "../../trpc.ts";
import { list } from "./list.ts";
import { syncNow } from "./sync-now.ts";

export const repositoriesRouter = router({ list, syncNow });
