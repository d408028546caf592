-- AlterTable
ALTER TABLE "Job" ALTER COLUMN "tokenBudget" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "defaultTokenBudget" INTEGER NOT NULL DEFAULT 200000;
