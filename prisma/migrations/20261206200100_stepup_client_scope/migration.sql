-- A registered OAuth client remembers the scope it was registered with, so a wider one registers anew (OAuth step-up)
-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "scope" TEXT;

