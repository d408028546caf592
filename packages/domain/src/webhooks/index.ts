// Use cases only: the authorization matrix enumerates these exports.
export { listWebhookDeliveries } from "./deliveries.ts";
export { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "./manage.ts";
export { redeliverWebhook } from "./redeliver.ts";
export { sendTestDelivery } from "./test-delivery.ts";
