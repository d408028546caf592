// The audit log: every change and every tool call, filterable and exportable.
import type { Metadata } from "next";
import { AuditLog } from "../../../../components/audit/audit-log.tsx";
import { auditListInput, NO_AUDIT_FILTERS } from "../../../../components/audit/audit-query.ts";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  await getQueryClient().prefetchInfiniteQuery(
    api().audit.list.infiniteQueryOptions(auditListInput(workspaceId, NO_AUDIT_FILTERS), {
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
