-- How a team's agent steps reach each model vendor: an endpoint or allowed endpoints, and
-- the API key sealed in a Credential (removed with the row's vendor access).
-- CreateTable
CREATE TABLE "ModelAccess" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "endpoint" TEXT,
    "allowedEndpoints" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "credentialId" TEXT,
    "keyHint" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelAccess_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ModelAccess_credentialId_key" ON "ModelAccess"("credentialId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelAccess_teamId_vendor_key" ON "ModelAccess"("teamId", "vendor");

-- AddForeignKey
ALTER TABLE "ModelAccess" ADD CONSTRAINT "ModelAccess_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelAccess" ADD CONSTRAINT "ModelAccess_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE SET NULL ON UPDATE CASCADE;
