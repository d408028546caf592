-- CreateTable
CREATE TABLE "InboundDelivery" (
    "key" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InboundDelivery_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "InboundDelivery_expiresAt_idx" ON "InboundDelivery"("expiresAt");

-- AddForeignKey
ALTER TABLE "InboundDelivery" ADD CONSTRAINT "InboundDelivery_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
