-- Workflow packs: the AWF packs a team installed, each install a numbered version, and the pack a workflow came from.
-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "pack" TEXT;

-- CreateTable
CREATE TABLE "WorkflowPack" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL,
    "currentVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkflowPack_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowPackVersion" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "packId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "archiveHash" TEXT NOT NULL,
    "manifest" JSONB NOT NULL,
    "readme" TEXT NOT NULL DEFAULT '',
    "workflows" JSONB NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowPackVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowPack_currentVersionId_key" ON "WorkflowPack"("currentVersionId");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowPack_teamId_name_key" ON "WorkflowPack"("teamId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowPackVersion_packId_number_key" ON "WorkflowPackVersion"("packId", "number");

-- AddForeignKey
ALTER TABLE "WorkflowPack" ADD CONSTRAINT "WorkflowPack_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowPack" ADD CONSTRAINT "WorkflowPack_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "WorkflowPackVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowPackVersion" ADD CONSTRAINT "WorkflowPackVersion_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowPackVersion" ADD CONSTRAINT "WorkflowPackVersion_packId_fkey" FOREIGN KEY ("packId") REFERENCES "WorkflowPack"("id") ON DELETE CASCADE ON UPDATE CASCADE;

