// Workspace settings: every member reads them; owners change them.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { WorkspaceSettingsForm } from "../../../../components/workspace/settings-form.tsx";
import { api, HydrateClient, prefetch } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { role } = await requireMembership(workspaceId);
  prefetch(api().workspace.get.queryOptions({ workspaceId }));
  return (
    <>
      <PageHeader
        title="Settings"
        description="Limits that apply to every job of this workspace."
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading settings…" />}>
          <WorkspaceSettingsForm workspaceId={workspaceId} canEdit={can(role, "own")} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
