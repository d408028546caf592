-- CreateEnum
CREATE TYPE "OutputState" AS ENUM ('PROPOSED', 'HELD', 'READY', 'APPROVED', 'APPLYING', 'APPLIED', 'REFUSED', 'REJECTED', 'EXPIRED', 'FAILED');

-- AlterTable
ALTER TABLE "Grant" ADD COLUMN     "outputs" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "requestedOutputs" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "RunOutput" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "state" "OutputState" NOT NULL DEFAULT 'PROPOSED',
    "payload" JSONB NOT NULL,
    "reason" TEXT,
    "resultUrl" TEXT,
    "proposedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "checkedAt" TIMESTAMP(3),
    "decidedAt" TIMESTAMP(3),
    "decidedById" TEXT,
    "appliedAt" TIMESTAMP(3),
    "applyAttempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunOutput_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunOutput_workspaceId_state_idx" ON "RunOutput"("workspaceId", "state");

-- CreateIndex
CREATE UNIQUE INDEX "RunOutput_runId_seq_key" ON "RunOutput"("runId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "RunOutput_workspaceId_id_key" ON "RunOutput"("workspaceId", "id");

-- AddForeignKey
ALTER TABLE "RunOutput" ADD CONSTRAINT "RunOutput_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunOutput" ADD CONSTRAINT "RunOutput_workspaceId_runId_fkey" FOREIGN KEY ("workspaceId", "runId") REFERENCES "Run"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunOutput" ADD CONSTRAINT "RunOutput_workspaceId_jobId_fkey" FOREIGN KEY ("workspaceId", "jobId") REFERENCES "Job"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
