-- AlterTable
ALTER TABLE "Grant" ADD COLUMN     "bindings" JSONB NOT NULL DEFAULT '[]';
