-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "targetLabel" TEXT;
