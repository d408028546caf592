-- AlterTable
ALTER TABLE "Repository" ADD COLUMN     "syncRequestedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "clientAddress" TEXT,
ADD COLUMN     "userAgent" TEXT;
