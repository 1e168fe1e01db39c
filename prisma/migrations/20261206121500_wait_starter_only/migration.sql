-- A conversation's message wait is answered by the run's starter only (Wait.starterOnly)
-- AlterTable
ALTER TABLE "Wait" ADD COLUMN     "starterOnly" BOOLEAN NOT NULL DEFAULT false;

