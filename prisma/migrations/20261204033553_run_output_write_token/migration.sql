-- AlterTable
ALTER TABLE "RunOutput" ADD COLUMN     "writeTokenCiphertext" BYTEA;
