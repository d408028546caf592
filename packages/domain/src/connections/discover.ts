// Owner: ask the connection's service which tools it offers, now, from the server. The call
// leaves through netguard with the connection's decrypted credential (refreshed if its OAuth
// token expired) — the same discovery code the worker runs, reached through `ctx.discovery` —
// and what it finds is stored for the owner's allowed-tools checklist. The tool list and its
// data-changing marks never come from a client.
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";
import { writeDiscoveredTools } from "./discovered-tools.ts";
import { connectionTools, type ConnectionTool } from "./view.ts";

export async function discoverConnectionTools(
  ctx: ActorContext,
  input: { connectionId: string },
): Promise<{ tools: ConnectionTool[] }> {
  await requireRole(ctx, "own");
  const discovery = requireService(ctx, "discovery");
  const connection = await ctx.db.connection.findFirst({
    where: { id: input.connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true },
  });
  if (!connection) throw notFound("Connection");
  const found = await discovery.discover({
    workspaceId: ctx.workspaceId,
    connectionId: connection.id,
  });
  await writeDiscoveredTools(ctx, connection.id, found);
  // Re-read the allowed list after storing, so a concurrent checklist change is reflected.
  const row = await ctx.db.connection.findUniqueOrThrow({
    where: { id: connection.id },
    select: { discoveredTools: true, allowedTools: true },
  });
  return { tools: connectionTools(row.discoveredTools, row.allowedTools) };
}
