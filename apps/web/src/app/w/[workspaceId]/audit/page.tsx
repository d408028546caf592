// The audit log: every change and every tool call, filterable and exportable.
import type { Metadata } from "next";
import { AuditLog } from "../../../../components/audit/audit-log.tsx";
import { auditListInput, parseAuditFilters } from "../../../../components/audit/audit-query.ts";
import { searchParamsOf, type PageSearchParams } from "../../../../components/ui/url-filters.ts";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage(props: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<PageSearchParams>;
}) {
  const { workspaceId } = await props.params;
  // The filters in the URL, read as the list reads them: the same query key on both sides.
  const filters = parseAuditFilters(searchParamsOf(await props.searchParams));
  await getQueryClient().prefetchInfiniteQuery(
    api().audit.list.infiniteQueryOptions(auditListInput(workspaceId, filters), {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  );
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in this workspace, and every tool call a run made. Times in UTC."
      />
      <HydrateClient>
        <AuditLog workspaceId={workspaceId} />
      </HydrateClient>
    </>
  );
}
