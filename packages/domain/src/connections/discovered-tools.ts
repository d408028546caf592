// What a discovery found, stored for the owner's allowed-tools checklist; and the discovery a
// new connection gets at once (created, or OAuth-authorized), which never fails the creation:
// a service that does not answer yet leaves a message and the "Discover tools again" button.
import type { ConnectionKind, Prisma } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import type { ActorContext } from "../context.ts";
import type { DiscoveredTool } from "../tools.ts";

/** How many tools the first discovery found, or why it found none; null: not attempted. */
export type FirstDiscovery = { tools: number } | { error: string } | null;

/** The kinds whose tools come from the service itself (GitHub and Sentry offer built-in ones). */
const DISCOVERED_KINDS: readonly ConnectionKind[] = ["MCP", "HTTP"];

export async function firstDiscovery(
  ctx: ActorContext,
  kind: ConnectionKind,
  connectionId: string,
): Promise<FirstDiscovery> {
  if (!DISCOVERED_KINDS.includes(kind) || !ctx.discovery) return null;
  try {
    const found = await ctx.discovery.discover({ workspaceId: ctx.workspaceId, connectionId });
    await writeDiscoveredTools(ctx, connectionId, found);
    return { tools: found.length };
  } catch (error) {
    return {
      error: isAppError(error)
        ? error.message
        : "The service did not list its tools; try Discover tools again from the connection's page.",
    };
  }
}

/** Inside a use case that already authorized the owner and found the connection. */
export async function writeDiscoveredTools(
  ctx: ActorContext,
  connectionId: string,
  discovered: readonly DiscoveredTool[],
): Promise<void> {
  const tools = discovered.map((t) => ({
    name: t.name,
    ...(t.description === undefined ? {} : { description: t.description }),
    inputSchema: t.inputSchema,
    mayChangeData: t.mayChangeData,
    ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
  }));
  await ctx.db.$transaction(async (tx) => {
    const { label } = await tx.connection.update({
      where: { id: connectionId },
      data: { discoveredTools: JSON.parse(JSON.stringify(tools)) as Prisma.InputJsonValue },
      select: { label: true },
    });
    await recordAudit(tx, {
      workspaceId: ctx.workspaceId,
      actorType: "USER",
      actorId: ctx.actor.userId,
      action: "connection.tools_discovered",
      targetType: "Connection",
      targetId: connectionId,
      targetLabel: label,
      connectionId,
    });
  });
}
