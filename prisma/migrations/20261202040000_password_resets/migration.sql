-- Reset links an instance admin issues belong to no team. A link records whether it was
-- mailed to the user's address. A user records when the first reset link since their own
-- last password change was issued (tokens made since are revoked at the next change).
-- A user who was ever issued a link gets the window from their first: under the earlier rules
-- a team admin was shown such links, so tokens made since are revoked at their next change.

-- AlterTable
ALTER TABLE "PasswordReset" ALTER COLUMN "teamId" DROP NOT NULL,
ADD COLUMN     "mailed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "resetSince" TIMESTAMP(3);

UPDATE "User" u SET "resetSince" = r.first
FROM (SELECT "userId", min("createdAt") AS first FROM "PasswordReset" GROUP BY "userId") r
WHERE r."userId" = u."id";

-- Links still pending were shown to whichever team admin issued them (the earlier rules):
-- they stop working now, and a new one goes to the person or to an instance admin.
UPDATE "PasswordReset" SET "expiresAt" = (now() AT TIME ZONE 'UTC')
WHERE "usedAt" IS NULL AND "expiresAt" > (now() AT TIME ZONE 'UTC');
