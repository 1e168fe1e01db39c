-- A secret variable lists the lanes whose runs may open it. Existing secrets become
-- operator-only (the default), and plain variables have no lanes.
-- AlterTable
ALTER TABLE "TeamVariable" ADD COLUMN     "lanes" TEXT[] DEFAULT ARRAY['operator']::TEXT[];
UPDATE "TeamVariable" SET "lanes" = ARRAY[]::TEXT[] WHERE NOT "secret";

-- Envelopes now bind the holder's name in their additional data. Rows sealed before are
-- format 1 until the worker re-seals them at boot, and new rows are format 2.
-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "sealFormat" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Credential" ALTER COLUMN "sealFormat" SET DEFAULT 2;
