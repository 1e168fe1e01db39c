-- Indexes for the run list and a run's tool calls at scale (100,000 runs, 1,000,000 calls):
-- the status-filtered list reads its page in order from one index (id breaks ties), and a
-- run's tool calls are read a page at a time in start order instead of sorting all of them
-- DropIndex
DROP INDEX "Run_teamId_status_createdAt_idx";

-- DropIndex
DROP INDEX "ToolCall_runId_idx";

-- CreateIndex
CREATE INDEX "Run_teamId_status_createdAt_id_idx" ON "Run"("teamId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ToolCall_runId_startedAt_id_idx" ON "ToolCall"("runId", "startedAt", "id");

