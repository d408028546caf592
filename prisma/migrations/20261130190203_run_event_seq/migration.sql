-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "lastEventSeq" INTEGER NOT NULL DEFAULT -1;

-- Runs that already have events continue after their highest sequence number.
UPDATE "Run" r SET "lastEventSeq" = e.max_seq
FROM (SELECT "runId", MAX("seq") AS max_seq FROM "RunEvent" GROUP BY "runId") e
WHERE e."runId" = r."id";
