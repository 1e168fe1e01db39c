-- Instance admins, the installation's settings (one row) and its audit entries (the audit
-- log's rows without a team). The seed makes its admin an instance admin when the
-- installation has none, so an upgraded installation gets its first at the next start.

-- CreateEnum
CREATE TYPE "TeamCreation" AS ENUM ('instance_admins', 'anyone');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "instanceAdmin" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "AuditLog" ALTER COLUMN "teamId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "InstanceSettings" (
    "id" TEXT NOT NULL DEFAULT 'instance',
    "teamCreation" "TeamCreation" NOT NULL DEFAULT 'instance_admins',
    "openSignUp" BOOLEAN NOT NULL DEFAULT false,
    "ssoOnly" BOOLEAN NOT NULL DEFAULT false,
    "maxTokenLifetimeDays" INTEGER,
    "allowAnyConnectorCommand" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedById" TEXT,

    CONSTRAINT "InstanceSettings_pkey" PRIMARY KEY ("id")
);

INSERT INTO "InstanceSettings" ("id") VALUES ('instance') ON CONFLICT DO NOTHING;
