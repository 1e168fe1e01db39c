-- Waits for a person (tool-call approvals first), parked runs and steps, sealed agent sessions,
-- lanes' approval rules, and wait.opened notifications (one delivery per wait).
-- CreateEnum
CREATE TYPE "WaitStatus" AS ENUM ('open', 'answered', 'expired', 'cancelled');

-- AlterEnum
ALTER TYPE "RunStatus" ADD VALUE 'waiting';

-- AlterEnum
ALTER TYPE "StepStatus" ADD VALUE 'waiting';

-- DropIndex
DROP INDEX "NotificationDelivery_endpointId_runId_event_key";

-- AlterTable
ALTER TABLE "Lane" ADD COLUMN     "approvalRules" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "NotificationDelivery" ADD COLUMN     "waitId" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "Wait" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "stepRunId" TEXT,
    "kind" TEXT NOT NULL,
    "status" "WaitStatus" NOT NULL DEFAULT 'open',
    "question" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "argumentsHash" TEXT,
    "minRole" "Role" NOT NULL DEFAULT 'member',
    "lane" TEXT NOT NULL,
    "notStarter" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" TIMESTAMP(3),
    "onExpiry" TEXT NOT NULL DEFAULT 'deny',
    "defaultAnswer" JSONB,
    "answer" JSONB,
    "answeredById" TEXT,
    "answeredByToken" TEXT,
    "answeredAt" TIMESTAMP(3),
    "parked" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Wait_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentSession" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "stepKey" TEXT NOT NULL,
    "stepRunId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "sessionId" TEXT,
    "sealed" BYTEA NOT NULL,
    "snapshotId" TEXT,
    "waitId" TEXT,
    "pendingCall" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Wait_teamId_status_createdAt_idx" ON "Wait"("teamId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Wait_runId_idx" ON "Wait"("runId");

-- CreateIndex
CREATE INDEX "Wait_status_expiresAt_idx" ON "Wait"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "AgentSession_runId_stepKey_idx" ON "AgentSession"("runId", "stepKey");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_endpointId_runId_event_waitId_key" ON "NotificationDelivery"("endpointId", "runId", "event", "waitId");

-- AddForeignKey
ALTER TABLE "Wait" ADD CONSTRAINT "Wait_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Wait" ADD CONSTRAINT "Wait_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Wait" ADD CONSTRAINT "Wait_stepRunId_fkey" FOREIGN KEY ("stepRunId") REFERENCES "StepRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentSession" ADD CONSTRAINT "AgentSession_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentSession" ADD CONSTRAINT "AgentSession_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

