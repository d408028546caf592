-- AlterTable
ALTER TABLE "ModelProvider" ADD COLUMN     "allowedModels" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "verifiedAt" TIMESTAMP(3);
