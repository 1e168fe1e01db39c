-- Step templates: a team's library of AWF templates, each saved as numbered immutable versions.
-- CreateTable
CREATE TABLE "StepTemplate" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "currentVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StepTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StepTemplateVersion" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "templateId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "contentHash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StepTemplateVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "StepTemplate_currentVersionId_key" ON "StepTemplate"("currentVersionId");

-- CreateIndex
CREATE UNIQUE INDEX "StepTemplate_teamId_name_key" ON "StepTemplate"("teamId", "name");

-- CreateIndex
CREATE INDEX "StepTemplateVersion_teamId_contentHash_idx" ON "StepTemplateVersion"("teamId", "contentHash");

-- CreateIndex
CREATE UNIQUE INDEX "StepTemplateVersion_templateId_number_key" ON "StepTemplateVersion"("templateId", "number");

-- AddForeignKey
ALTER TABLE "StepTemplate" ADD CONSTRAINT "StepTemplate_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepTemplate" ADD CONSTRAINT "StepTemplate_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "StepTemplateVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepTemplateVersion" ADD CONSTRAINT "StepTemplateVersion_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepTemplateVersion" ADD CONSTRAINT "StepTemplateVersion_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "StepTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

