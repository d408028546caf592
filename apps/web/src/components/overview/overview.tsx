"use client";
// The overview: a new workspace's getting-started checklist until every step is done, then the
// panels of what needs attention (approvals, held results, active runs, failed reports, sync and config).
import { useSuspenseQuery } from "@tanstack/react-query";
import type { Role } from "@secondshift/vocabulary";
import { Suspense } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { LoadingState } from "../ui/states.tsx";
import { GettingStarted, onboardingSteps } from "./getting-started.tsx";
import {
  ActiveRunsPanel,
  ApprovalsPanel,
  FailedDeliveriesPanel,
  RepositoryProblemsPanel,
} from "./panels.tsx";
import { WaitingOutputsPanel } from "../outputs/waiting-outputs-panel.tsx";

const PANELS = [
  ["approvals", ApprovalsPanel],
  ["outputs", WaitingOutputsPanel],
  ["runs", ActiveRunsPanel],
  ["deliveries", FailedDeliveriesPanel],
  ["repositories", RepositoryProblemsPanel],
] as const;

export function Overview({ workspaceId, role }: { workspaceId: string; role: Role }) {
  const trpc = useTRPC();
  const { data: onboarding } = useSuspenseQuery(
    trpc.workspace.onboarding.queryOptions({ workspaceId }),
  );
  if (!onboardingSteps(onboarding).every((s) => s.done)) {
    return <GettingStarted workspaceId={workspaceId} role={role} onboarding={onboarding} />;
  }
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      {PANELS.map(([key, Panel]) => (
        <Suspense key={key} fallback={<LoadingState />}>
          <Panel workspaceId={workspaceId} />
        </Suspense>
      ))}
    </div>
  );
}
