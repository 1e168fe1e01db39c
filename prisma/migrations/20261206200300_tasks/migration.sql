-- Long connector calls run as MCP tasks, followed by the worker
-- CreateTable
CREATE TABLE "ConnectorTask" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT,
    "stateName" TEXT NOT NULL,
    "connectorSlug" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "argsHash" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "pollIntervalMs" INTEGER,
    "expiresAt" TIMESTAMP(3),
    "lastPolledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConnectorTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConnectorTask_teamId_runId_status_idx" ON "ConnectorTask"("teamId", "runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectorTask_teamId_connectorSlug_owner_taskId_key" ON "ConnectorTask"("teamId", "connectorSlug", "owner", "taskId");

-- AddForeignKey
ALTER TABLE "ConnectorTask" ADD CONSTRAINT "ConnectorTask_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

