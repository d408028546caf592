// Connections as every member may see them (C02: admins and viewers see, never change). The
// select is explicit: no ciphertext column is ever read here, so none can be returned.
import type { ConnectionAuth, ConnectionKind } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";
import { readDiscoveredTools } from "../tools.ts";

export interface ConnectionSummary {
  id: string;
  kind: ConnectionKind;
  label: string;
  endpoint: string;
  authType: ConnectionAuth;
  allowedTools: string[];
  discoveredTools: Array<{ name: string; mayChangeData: boolean }>;
  createdAt: Date;
}

export async function listConnections(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<ConnectionSummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.connection.findMany({
    where: { workspaceId: ctx.workspaceId, deletedAt: null },
    select: {
      id: true,
      kind: true,
      label: true,
      endpoint: true,
      authType: true,
      allowedTools: true,
      discoveredTools: true,
      createdAt: true,
    },
    orderBy: { label: "asc" },
  });
  return rows.map((row) => ({
    ...row,
    discoveredTools: [...readDiscoveredTools(row.discoveredTools).values()].map((t) => ({
      name: t.name,
      mayChangeData: t.mayChangeData,
    })),
  }));
}
