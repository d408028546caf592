// Webhooks: signed run reports to the team's own systems, and every delivery with its attempts.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { WebhooksView } from "../../../../components/webhooks/webhooks-view.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  void getQueryClient().prefetchQuery(api().webhooks.list.queryOptions({ workspaceId }));
  const { role } = await requireMembership(workspaceId);
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
            isOwner={can(role, "own")}
            canOperate={can(role, "operate")}
          />
        </Suspense>
      </HydrateClient>
    </>
  );
}
