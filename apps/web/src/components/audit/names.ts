"use client";
// Names for the ids the audit log records: members (actors) and connections.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react.tsx";

export interface AuditNames {
  members: ReadonlyMap<string, string>;
  connections: ReadonlyMap<string, string>;
}

export function useAuditNames(workspaceId: string): AuditNames {
  const trpc = useTRPC();
  const members = useQuery(trpc.members.list.queryOptions({ workspaceId }));
  const connections = useQuery(trpc.connections.list.queryOptions({ workspaceId }));
  return {
    members: new Map((members.data ?? []).map((m) => [m.userId, m.name])),
    connections: new Map((connections.data ?? []).map((c) => [c.id, c.label])),
  };
}
