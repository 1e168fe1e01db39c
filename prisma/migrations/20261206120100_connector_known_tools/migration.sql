-- The tools a connector listed when a worker last connected to it, for checking plugin_tools at save
-- AlterTable
ALTER TABLE "Connector" ADD COLUMN     "knownTools" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "knownToolsAt" TIMESTAMP(3);

