// Use cases only: the authorization matrix enumerates these exports.
export { redeliverWebhook } from "./redeliver.ts";
