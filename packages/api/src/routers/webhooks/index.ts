import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { deliveries } from "./deliveries.ts";
import { list } from "./list.ts";
import { redeliver } from "./redeliver.ts";
import { testDelivery } from "./test-delivery.ts";
import { update } from "./update.ts";

export const webhooksRouter = router({
  list,
  create,
  update,
  delete: remove,
  deliveries,
  redeliver,
  testDelivery,
});
