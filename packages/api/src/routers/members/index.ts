// Invitations stay under auth.invitations (create / revoke / accept side by side).
import { router } from "../../trpc.ts";
import { changeRole } from "./change-role.ts";
import { list } from "./list.ts";
import { remove } from "./remove.ts";

export const membersRouter = router({ list, changeRole, remove });
