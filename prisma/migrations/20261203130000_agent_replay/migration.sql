-- Replay of agent attempts: what an attempt started with (its request, CLI version and the
-- workspace snapshot), which tool calls a replay answered from the recording, runs marked as
-- examples of their workflow and suite replays of them. Snapshot files are kept once per team
-- by SHA-256 (WorkspaceBlob).
-- AlterEnum
ALTER TYPE "RunTrigger" ADD VALUE 'replay';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "exampleAt" TIMESTAMP(3),
ADD COLUMN     "replayOfId" TEXT,
ADD COLUMN     "replayOptions" JSONB,
ADD COLUMN     "replaySuiteId" TEXT;

-- AlterTable
ALTER TABLE "StepRun" ADD COLUMN     "agentRequest" JSONB,
ADD COLUMN     "agentVersion" TEXT,
ADD COLUMN     "snapshotId" TEXT;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "replay" TEXT;

-- CreateTable
CREATE TABLE "WorkspaceSnapshot" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "files" JSONB NOT NULL,
    "totalBytes" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkspaceBlob" (
    "teamId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceBlob_pkey" PRIMARY KEY ("teamId","sha256")
);

-- CreateTable
CREATE TABLE "ReplaySuite" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReplaySuite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WorkspaceSnapshot_runId_idx" ON "WorkspaceSnapshot"("runId");

-- CreateIndex
CREATE INDEX "WorkspaceSnapshot_teamId_idx" ON "WorkspaceSnapshot"("teamId");

-- CreateIndex
CREATE INDEX "ReplaySuite_teamId_workflowId_createdAt_idx" ON "ReplaySuite"("teamId", "workflowId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_replayOfId_idx" ON "Run"("replayOfId");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_replaySuiteId_fkey" FOREIGN KEY ("replaySuiteId") REFERENCES "ReplaySuite"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepRun" ADD CONSTRAINT "StepRun_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "WorkspaceSnapshot"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceSnapshot" ADD CONSTRAINT "WorkspaceSnapshot_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceSnapshot" ADD CONSTRAINT "WorkspaceSnapshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceBlob" ADD CONSTRAINT "WorkspaceBlob_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReplaySuite" ADD CONSTRAINT "ReplaySuite_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReplaySuite" ADD CONSTRAINT "ReplaySuite_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

