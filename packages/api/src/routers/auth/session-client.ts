// The browser a new session belongs to, as "Your sessions" shows it: its User-Agent and the
// client address (resolved with the trusted-proxy setting, client-address.ts).
import type { Context } from "../../context.ts";

export const sessionClient = (ctx: Pick<Context, "request">) => ({
  userAgent: ctx.request.userAgent,
  address: ctx.request.clientAddress,
});
