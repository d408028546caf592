// Webhooks: signed run reports to the team's own systems, and every delivery with its attempts.
import type { Metadata } from "next";
import { Suspense } from "react";
import { WebhooksView } from "../../../../components/webhooks/webhooks-view.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";
import { requireUser } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  void getQueryClient().prefetchQuery(api().webhooks.list.queryOptions({ workspaceId }));
  const user = await requireUser();
  const role = user.workspaces.find((w) => w.id === workspaceId)?.role;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="When a run ends, each matching webhook gets a signed report (retried until it is delivered)."
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading webhooks…" />}>
          <WebhooksView
            workspaceId={workspaceId}
            isOwner={role === "OWNER"}
            canOperate={role === "OWNER" || role === "ADMIN"}
          />
        </Suspense>
      </HydrateClient>
    </>
  );
}
