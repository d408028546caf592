import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { list } from "./list.ts";
import { replaceKey } from "./replace-key.ts";
import { update } from "./update.ts";
import { verify } from "./verify.ts";

export const providersRouter = router({
  list,
  create,
  update,
  replaceKey,
  verify,
  delete: remove,
});
