import { router } from "../../trpc.ts";
import { add } from "./add.ts";
import { list } from "./list.ts";
import { syncNow } from "./sync-now.ts";

export const repositoriesRouter = router({ list, add, syncNow });
