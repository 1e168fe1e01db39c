-- Workflows synced from a linked git repository (GitSource), and the commit each synced version came from
-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "gitPath" TEXT,
ADD COLUMN     "gitSourceId" TEXT;

-- AlterTable
ALTER TABLE "WorkflowVersion" ADD COLUMN     "commitId" TEXT;

-- CreateTable
CREATE TABLE "GitSource" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "branch" TEXT NOT NULL DEFAULT 'main',
    "folder" TEXT NOT NULL DEFAULT '',
    "username" TEXT NOT NULL DEFAULT 'x-access-token',
    "tokenCredentialId" TEXT,
    "webhookCredentialId" TEXT,
    "syncIntervalMinutes" INTEGER,
    "nextSyncAt" TIMESTAMP(3),
    "syncingSince" TIMESTAMP(3),
    "lastSyncAt" TIMESTAMP(3),
    "lastCommit" TEXT,
    "lastStatus" TEXT,
    "lastError" TEXT,
    "lastFiles" JSONB NOT NULL DEFAULT '[]',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GitSource_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GitSource_tokenCredentialId_key" ON "GitSource"("tokenCredentialId");

-- CreateIndex
CREATE UNIQUE INDEX "GitSource_webhookCredentialId_key" ON "GitSource"("webhookCredentialId");

-- CreateIndex
CREATE INDEX "GitSource_teamId_idx" ON "GitSource"("teamId");

-- CreateIndex
CREATE INDEX "GitSource_nextSyncAt_idx" ON "GitSource"("nextSyncAt");

-- CreateIndex
CREATE INDEX "Workflow_gitSourceId_idx" ON "Workflow"("gitSourceId");

-- AddForeignKey
ALTER TABLE "Workflow" ADD CONSTRAINT "Workflow_gitSourceId_fkey" FOREIGN KEY ("gitSourceId") REFERENCES "GitSource"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSource" ADD CONSTRAINT "GitSource_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

