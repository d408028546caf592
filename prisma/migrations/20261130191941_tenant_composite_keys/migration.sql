-- Every reference between tenant rows is a composite foreign key on (workspaceId, id), so a row
-- can only point at a row of its own workspace (P05). The two optional references clear only
-- their own column on delete (PostgreSQL 15's SET NULL column list; Prisma would write a plain
-- SET NULL, which would also try to clear the referencing row's workspaceId).

-- DropForeignKey
ALTER TABLE "Grant" DROP CONSTRAINT "Grant_jobId_fkey";

-- DropForeignKey
ALTER TABLE "GrantTool" DROP CONSTRAINT "GrantTool_connectionId_fkey";

-- DropForeignKey
ALTER TABLE "GrantTool" DROP CONSTRAINT "GrantTool_grantId_fkey";

-- DropForeignKey
ALTER TABLE "Job" DROP CONSTRAINT "Job_repositoryId_fkey";

-- DropForeignKey
ALTER TABLE "Repository" DROP CONSTRAINT "Repository_connectionId_fkey";

-- DropForeignKey
ALTER TABLE "Run" DROP CONSTRAINT "Run_jobId_fkey";

-- DropForeignKey
ALTER TABLE "Run" DROP CONSTRAINT "Run_modelProviderId_fkey";

-- DropForeignKey
ALTER TABLE "RunEvent" DROP CONSTRAINT "RunEvent_runId_fkey";

-- DropForeignKey
ALTER TABLE "RunToken" DROP CONSTRAINT "RunToken_runId_fkey";

-- DropForeignKey
ALTER TABLE "WebhookDelivery" DROP CONSTRAINT "WebhookDelivery_runId_fkey";

-- DropForeignKey
ALTER TABLE "WebhookDelivery" DROP CONSTRAINT "WebhookDelivery_webhookId_fkey";

-- DropForeignKey
ALTER TABLE "WebhookDeliveryAttempt" DROP CONSTRAINT "WebhookDeliveryAttempt_deliveryId_fkey";

-- CreateIndex
CREATE UNIQUE INDEX "Connection_workspaceId_id_key" ON "Connection"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Grant_workspaceId_id_key" ON "Grant"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Job_workspaceId_id_key" ON "Job"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ModelProvider_workspaceId_id_key" ON "ModelProvider"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Repository_workspaceId_id_key" ON "Repository"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Run_workspaceId_id_key" ON "Run"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_workspaceId_id_key" ON "Webhook"("workspaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_workspaceId_id_key" ON "WebhookDelivery"("workspaceId", "id");

-- AddForeignKey
ALTER TABLE "Repository" ADD CONSTRAINT "Repository_workspaceId_connectionId_fkey" FOREIGN KEY ("workspaceId", "connectionId") REFERENCES "Connection"("workspaceId", "id") ON DELETE SET NULL ("connectionId") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_workspaceId_repositoryId_fkey" FOREIGN KEY ("workspaceId", "repositoryId") REFERENCES "Repository"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_workspaceId_jobId_fkey" FOREIGN KEY ("workspaceId", "jobId") REFERENCES "Job"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GrantTool" ADD CONSTRAINT "GrantTool_workspaceId_grantId_fkey" FOREIGN KEY ("workspaceId", "grantId") REFERENCES "Grant"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GrantTool" ADD CONSTRAINT "GrantTool_workspaceId_connectionId_fkey" FOREIGN KEY ("workspaceId", "connectionId") REFERENCES "Connection"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_workspaceId_jobId_fkey" FOREIGN KEY ("workspaceId", "jobId") REFERENCES "Job"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_workspaceId_modelProviderId_fkey" FOREIGN KEY ("workspaceId", "modelProviderId") REFERENCES "ModelProvider"("workspaceId", "id") ON DELETE SET NULL ("modelProviderId") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunToken" ADD CONSTRAINT "RunToken_workspaceId_runId_fkey" FOREIGN KEY ("workspaceId", "runId") REFERENCES "Run"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEvent" ADD CONSTRAINT "RunEvent_workspaceId_runId_fkey" FOREIGN KEY ("workspaceId", "runId") REFERENCES "Run"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_workspaceId_webhookId_fkey" FOREIGN KEY ("workspaceId", "webhookId") REFERENCES "Webhook"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_workspaceId_runId_fkey" FOREIGN KEY ("workspaceId", "runId") REFERENCES "Run"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryAttempt" ADD CONSTRAINT "WebhookDeliveryAttempt_workspaceId_deliveryId_fkey" FOREIGN KEY ("workspaceId", "deliveryId") REFERENCES "WebhookDelivery"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
