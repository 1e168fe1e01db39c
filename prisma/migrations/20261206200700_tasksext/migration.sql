-- When a call got a connector task's result: a task a new worker followed to its end stays the call's to take
-- AlterTable
ALTER TABLE "ConnectorTask" ADD COLUMN     "resultTakenAt" TIMESTAMP(3);

-- Until now a task was marked ended only once a call had its result in hand.
UPDATE "ConnectorTask" SET "resultTakenAt" = "updatedAt" WHERE "status" IN ('completed', 'failed');
