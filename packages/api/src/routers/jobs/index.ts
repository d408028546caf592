import { router } from "../../trpc.ts";
import { approve } from "./approve.ts";
import { events } from "./events.ts";
import { get } from "./get.ts";
import { list } from "./list.ts";
import { pause } from "./pause.ts";
import { reject } from "./reject.ts";
import { resume } from "./resume.ts";
import { review } from "./review.ts";
import { revokeGrant } from "./revoke-grant.ts";
import { runNow } from "./run-now.ts";
import { setOutsiderEvents } from "./set-outsider-events.ts";

export const jobsRouter = router({
  list,
  get,
  events,
  review,
  approve,
  reject,
  revokeGrant,
  runNow,
  pause,
  resume,
  setOutsiderEvents,
});
