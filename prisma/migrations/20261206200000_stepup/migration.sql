-- A connector credential remembers the wider scope its server asked for (OAuth step-up)
-- AlterTable
ALTER TABLE "ConnectorCredential" ADD COLUMN     "requiredScope" TEXT;

