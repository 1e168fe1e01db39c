-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "pinnedVersions" JSONB;

