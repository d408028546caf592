-- AlterEnum
ALTER TYPE "RunStatus" ADD VALUE 'SUPERSEDED';

-- AlterEnum
ALTER TYPE "RunTrigger" ADD VALUE 'EVENT';

-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "webhookSecretCiphertext" BYTEA;

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "allowOutsiderEvents" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "eventRunsPerHour" INTEGER NOT NULL DEFAULT 60;

-- CreateTable
CREATE TABLE "TriggerEvent" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectNumber" INTEGER NOT NULL,
    "subjectTitle" TEXT NOT NULL,
    "subjectUrl" TEXT NOT NULL,
    "subjectAuthor" TEXT NOT NULL,
    "actorLogin" TEXT NOT NULL,
    "actorIsBot" BOOLEAN NOT NULL DEFAULT false,
    "headSha" TEXT,
    "headRef" TEXT,
    "baseRef" TEXT,
    "headRepoFullName" TEXT,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "label" TEXT,
    "body" TEXT,
    "commentBody" TEXT,
    "commentUrl" TEXT,
    "commandText" TEXT,
    "dedupeKey" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "dropReason" TEXT,
    "detail" TEXT,
    "actorPermission" TEXT,
    "actorCheckedAt" TIMESTAMP(3),
    "runId" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriggerEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TriggerEvent_workspaceId_jobId_receivedAt_idx" ON "TriggerEvent"("workspaceId", "jobId", "receivedAt");

-- CreateIndex
CREATE INDEX "TriggerEvent_workspaceId_outcome_receivedAt_idx" ON "TriggerEvent"("workspaceId", "outcome", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TriggerEvent_jobId_dedupeKey_key" ON "TriggerEvent"("jobId", "dedupeKey");

-- CreateIndex
CREATE UNIQUE INDEX "TriggerEvent_workspaceId_runId_key" ON "TriggerEvent"("workspaceId", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "TriggerEvent_workspaceId_id_key" ON "TriggerEvent"("workspaceId", "id");

-- AddForeignKey
ALTER TABLE "TriggerEvent" ADD CONSTRAINT "TriggerEvent_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerEvent" ADD CONSTRAINT "TriggerEvent_workspaceId_jobId_fkey" FOREIGN KEY ("workspaceId", "jobId") REFERENCES "Job"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerEvent" ADD CONSTRAINT "TriggerEvent_workspaceId_runId_fkey" FOREIGN KEY ("workspaceId", "runId") REFERENCES "Run"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
