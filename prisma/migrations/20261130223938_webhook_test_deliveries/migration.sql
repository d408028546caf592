-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "event" TEXT NOT NULL DEFAULT 'run.finished',
ALTER COLUMN "runId" DROP NOT NULL;
