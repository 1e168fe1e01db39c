-- Budgets: a team's spend limits (workflow, lane or team, per UTC day or month) and the one ledger of spend.
-- CreateEnum
CREATE TYPE "BudgetScope" AS ENUM ('workflow', 'lane', 'team');

-- CreateEnum
CREATE TYPE "BudgetPeriod" AS ENUM ('day', 'month');

-- CreateEnum
CREATE TYPE "SpendKind" AS ENUM ('model', 'call', 'wall');

-- CreateTable
CREATE TABLE "BudgetLimit" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "scope" "BudgetScope" NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "period" "BudgetPeriod" NOT NULL,
    "costUsd" DECIMAL(14,4),
    "tokens" BIGINT,
    "calls" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BudgetLimit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpendEntry" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "stepRunId" TEXT,
    "workflowId" TEXT NOT NULL,
    "lane" TEXT NOT NULL,
    "memberId" TEXT,
    "kind" "SpendKind" NOT NULL,
    "tool" TEXT,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DECIMAL(12,6) NOT NULL DEFAULT 0,
    "wallMs" INTEGER NOT NULL DEFAULT 0,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpendEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BudgetLimit_teamId_scope_target_period_key" ON "BudgetLimit"("teamId", "scope", "target", "period");

-- CreateIndex
CREATE INDEX "SpendEntry_teamId_at_idx" ON "SpendEntry"("teamId", "at");

-- CreateIndex
CREATE INDEX "SpendEntry_teamId_lane_at_idx" ON "SpendEntry"("teamId", "lane", "at");

-- CreateIndex
CREATE INDEX "SpendEntry_teamId_workflowId_at_idx" ON "SpendEntry"("teamId", "workflowId", "at");

-- CreateIndex
CREATE INDEX "SpendEntry_teamId_memberId_at_idx" ON "SpendEntry"("teamId", "memberId", "at");

-- CreateIndex
CREATE INDEX "SpendEntry_runId_idx" ON "SpendEntry"("runId");

-- AddForeignKey
ALTER TABLE "BudgetLimit" ADD CONSTRAINT "BudgetLimit_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpendEntry" ADD CONSTRAINT "SpendEntry_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

