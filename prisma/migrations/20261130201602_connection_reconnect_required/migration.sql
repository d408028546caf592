-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "authError" TEXT,
ADD COLUMN     "reconnectRequiredAt" TIMESTAMP(3);
