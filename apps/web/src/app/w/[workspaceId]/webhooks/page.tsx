// Webhooks: signed run reports to the team's own systems, and every delivery with its attempts.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { WebhooksView } from "../../../../components/webhooks/webhooks-view.tsx";
import {
  deliveriesInput,
  nextDeliveriesCursor,
  parseDeliveryFilters,
} from "../../../../components/webhooks/deliveries-query.ts";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { searchParamsOf, type PageSearchParams } from "../../../../components/ui/url-filters.ts";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage(props: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<PageSearchParams>;
}) {
  const { workspaceId } = await props.params;
  const filters = parseDeliveryFilters(searchParamsOf(await props.searchParams));
  void getQueryClient().prefetchQuery(api().webhooks.list.queryOptions({ workspaceId }));
  // The deliveries the URL's filters select, with the list's own query key. Awaited: the list
  // reads them without suspense, so data that arrived only in the browser would render
  // differently from the server's HTML (a hydration mismatch, React's #418).
  await getQueryClient().prefetchInfiniteQuery(
    api().webhooks.deliveries.infiniteQueryOptions(deliveriesInput(workspaceId, filters), {
      getNextPageParam: nextDeliveriesCursor,
    }),
  );
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
