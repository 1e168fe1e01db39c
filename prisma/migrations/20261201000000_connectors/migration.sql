-- Connectors as teams use them: a description, whose account a run uses (the team's or each
-- member's own), initial tools and per-lane tool allow-lists, and connector credentials, each
-- a sealed Credential with what anyone may see of it (kind, fingerprint, who set it, use).
-- AlterTable
ALTER TABLE "Connector" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "credentialMode" TEXT NOT NULL DEFAULT 'team',
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "initialTools" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "toolAllow" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "ConnectorCredential" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "connectorId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "setById" TEXT,
    "setAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ConnectorCredential_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConnectorCredential_credentialId_key" ON "ConnectorCredential"("credentialId");

-- CreateIndex
CREATE INDEX "ConnectorCredential_teamId_idx" ON "ConnectorCredential"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectorCredential_connectorId_owner_key" ON "ConnectorCredential"("connectorId", "owner");

-- AddForeignKey
ALTER TABLE "ConnectorCredential" ADD CONSTRAINT "ConnectorCredential_connectorId_fkey" FOREIGN KEY ("connectorId") REFERENCES "Connector"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConnectorCredential" ADD CONSTRAINT "ConnectorCredential_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

