-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "outputId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_webhookId_outputId_key" ON "WebhookDelivery"("webhookId", "outputId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_workspaceId_outputId_fkey" FOREIGN KEY ("workspaceId", "outputId") REFERENCES "RunOutput"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
