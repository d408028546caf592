import { router } from "../../trpc.ts";
import { transcript } from "./transcript.ts";

export const runsRouter = router({ transcript });
