// storeDiscoveredTools is not offered here on purpose: the tool list and its data-changing
// marks come from the server's own discovery call (discover), never from a client.
import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { discover } from "./discover.ts";
import { get } from "./get.ts";
import { impact } from "./impact.ts";
import { list } from "./list.ts";
import { oauthStart } from "./oauth-start.ts";
import { setAllowedTools } from "./set-allowed-tools.ts";
import { setWebhookSecret } from "./set-webhook-secret.ts";

export const connectionsRouter = router({
  list,
  get,
  create,
  impact,
  discover,
  oauthStart,
  delete: remove,
  setAllowedTools,
  setWebhookSecret,
});
