-- Elicitation waits: a console call's wait has no run, and names the member who asked
-- AlterTable
ALTER TABLE "Wait" ADD COLUMN     "askedById" TEXT,
ALTER COLUMN "runId" DROP NOT NULL;

