-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "requestedTriggers" JSONB NOT NULL DEFAULT '{}';
