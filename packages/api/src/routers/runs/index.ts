import { router } from "../../trpc.ts";
import { cancel } from "./cancel.ts";
import { get } from "./get.ts";
import { list } from "./list.ts";
import { locate } from "./locate.ts";
import { transcript } from "./transcript.ts";
import { transcriptPage } from "./transcript-page.ts";

export const runsRouter = router({ list, get, locate, cancel, transcript, transcriptPage });
