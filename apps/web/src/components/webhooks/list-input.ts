// webhooks.list takes no input of its own (`z.object({})`), which tRPC types as an object whose
// other keys are `never` once merged with the workspace's id: cast the one field it reads.
import type { AppRouter } from "@secondshift/api";
import type { inferRouterInputs } from "@trpc/server";

export type WebhooksListInput = inferRouterInputs<AppRouter>["webhooks"]["list"];

export const webhooksListInput = (workspaceId: string) =>
  ({ workspaceId }) as unknown as WebhooksListInput;
