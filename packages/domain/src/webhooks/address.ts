// A webhook's URL is sealed and only the worker decrypts it, when delivering (C27): the web
// process cannot re-check a stored URL. What it can read is the send-time guard's own decision:
// the words a delivery recorded when netguard refused the URL by policy. A webhook saved
// before the save check, whose last attempted delivery was refused so, is marked with that.
import type { ActorContext } from "../context.ts";

/** The netguard reasons that are the policy's refusal, as describeFailure records them. */
const POLICY_REASONS = ["ADDRESS_NOT_PUBLIC", "HOST_NOT_ALLOWED", "HTTPS_REQUIRED"] as const;

const REMEDY =
  "SecondShift refuses http://, private, loopback, link-local and metadata addresses in production; " +
  "an operator can allow internal hosts with SECONDSHIFT_ALLOWED_PRIVATE_HOSTS or ranges with " +
  "SECONDSHIFT_ALLOWED_PRIVATE_CIDRS (see docs/DEPLOY.md), or replace the webhook with an allowed URL.";

function problemOf(lastError: string | null): string | null {
  if (lastError === null) return null;
  const refused = POLICY_REASONS.some((reason) => lastError.endsWith(`(${reason})`));
  if (!refused) return null;
  const words = lastError.replace(/\s*\([A-Z_]+\)$/, "");
  return `The last delivery was refused by the outbound policy: ${words} ${REMEDY}`;
}

/** Webhook id → the policy's refusal of its last attempted delivery (absent: none). */
export async function webhookAddressProblems(ctx: ActorContext): Promise<Map<string, string>> {
  const latest = await ctx.db.webhookDelivery.findMany({
    where: { workspaceId: ctx.workspaceId, attemptCount: { gt: 0 } },
    select: { webhookId: true, lastError: true },
    orderBy: [{ webhookId: "asc" }, { createdAt: "desc" }],
    distinct: ["webhookId"],
  });
  const problems = new Map<string, string>();
  for (const row of latest) {
    const problem = problemOf(row.lastError);
    if (problem !== null) problems.set(row.webhookId, problem);
  }
  return problems;
}
