// Use cases only: the authorization matrix enumerates these exports.
export { setConnectionWebhookSecret } from "./webhook-secret.ts";
export { setOutsiderEvents } from "./outsider-events.ts";
export { listJobEvents } from "./job-events.ts";
