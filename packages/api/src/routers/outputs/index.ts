import { router } from "../../trpc.ts";
import { approve } from "./approve.ts";
import { list } from "./list.ts";
import { reject } from "./reject.ts";
import { waiting } from "./waiting.ts";

export const outputsRouter = router({ list, waiting, approve, reject });
