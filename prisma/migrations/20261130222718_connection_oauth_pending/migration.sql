-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "oauthPendingCiphertext" BYTEA,
ADD COLUMN     "oauthPendingExpiresAt" TIMESTAMP(3),
ADD COLUMN     "oauthStateHash" BYTEA;

-- CreateIndex
CREATE UNIQUE INDEX "Connection_oauthStateHash_key" ON "Connection"("oauthStateHash");
