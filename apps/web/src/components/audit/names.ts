"use client";
// Names for the ids the audit log records: members (actors) and connections.
import type { AppRouter } from "@secondshift/api";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterInputs } from "@trpc/server";
import { useTRPC } from "../../trpc/react.tsx";

export interface AuditNames {
  members: ReadonlyMap<string, string>;
  connections: ReadonlyMap<string, string>;
}

type Inputs = inferRouterInputs<AppRouter>;

export function useAuditNames(workspaceId: string): AuditNames {
  const trpc = useTRPC();
  // Both take only the workspace (their own input is empty): see webhooks/list-input.ts.
  const members = useQuery(
    trpc.members.list.queryOptions({ workspaceId } as unknown as Inputs["members"]["list"]),
  );
  const connections = useQuery(
    trpc.connections.list.queryOptions({ workspaceId } as unknown as Inputs["connections"]["list"]),
  );
  return {
    members: new Map((members.data ?? []).map((m) => [m.userId, m.name])),
    connections: new Map((connections.data ?? []).map((c) => [c.id, c.label])),
  };
}
