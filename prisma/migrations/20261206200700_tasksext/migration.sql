-- When a call got a connector task's result: a task a new worker followed to its end stays the call's to take
-- AlterTable
ALTER TABLE "ConnectorTask" ADD COLUMN     "resultTakenAt" TIMESTAMP(3);

