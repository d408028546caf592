// How a connection's tools and state read to a member: each discovered tool with its
// data-changing mark and whether the owner allowed it, and whether the owner must reconnect.
import { readDiscoveredTools } from "../tools.ts";

export interface ConnectionTool {
  name: string;
  description: string | null;
  /** From the service's hints; unknown counts as "may change data" (never understated). */
  mayChangeData: boolean;
  allowed: boolean;
}

export interface ReconnectNeeded {
  since: Date;
  /** Written by the OAuth refresher: never a token or the server's raw answer. */
  message: string;
}

const DEFAULT_RECONNECT_MESSAGE =
  "The service no longer accepts this connection's authorization; reconnect it so jobs can use it again.";

export function connectionTools(discovered: unknown, allowedTools: readonly string[]) {
  const allowed = new Set(allowedTools);
  return [...readDiscoveredTools(discovered).values()].map((t): ConnectionTool => ({
    name: t.name,
    description: typeof t.description === "string" ? t.description : null,
    mayChangeData: t.mayChangeData,
    allowed: allowed.has(t.name),
  }));
}

export function reconnectNeeded(row: {
  reconnectRequiredAt: Date | null;
  authError: string | null;
}): ReconnectNeeded | null {
  if (!row.reconnectRequiredAt) return null;
  return { since: row.reconnectRequiredAt, message: row.authError ?? DEFAULT_RECONNECT_MESSAGE };
}
