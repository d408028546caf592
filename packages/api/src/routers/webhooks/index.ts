import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { deliveries } from "./deliveries.ts";
import { list } from "./list.ts";
import { redeliver } from "./redeliver.ts";

export const webhooksRouter = router({ list, create, delete: remove, deliveries, redeliver });
