-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "maxConcurrentRuns" INTEGER;

