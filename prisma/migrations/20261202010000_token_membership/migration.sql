-- An API token is bound to the membership it was made under: a member removed and invited
-- back has a new membership, which the old tokens do not match. Each revocation says why,
-- and a token made with a token names its maker.

-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "membershipId" TEXT,
ADD COLUMN     "revokedReason" TEXT,
ADD COLUMN     "revokedById" TEXT,
ADD COLUMN     "madeWithId" TEXT;

-- Existing tokens: bound to their owner's current membership of the token's team when
-- they were made under it (made after it began). A token older than the membership was
-- made under an earlier one, which a removal ended: it is revoked, as is every token
-- whose owner is no longer a member.
UPDATE "ApiToken" t SET "membershipId" = m."id"
FROM "Membership" m
WHERE m."teamId" = t."teamId" AND m."userId" = t."userId" AND t."createdAt" >= m."createdAt";

UPDATE "ApiToken" SET "revokedAt" = (now() AT TIME ZONE 'UTC'), "revokedReason" = 'member_removed'
WHERE "membershipId" IS NULL AND "revokedAt" IS NULL;

UPDATE "ApiToken" SET "revokedReason" = 'revoked' WHERE "revokedAt" IS NOT NULL AND "revokedReason" IS NULL;

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "ApiToken_madeWithId_idx" ON "ApiToken"("madeWithId");

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_membershipId_fkey" FOREIGN KEY ("membershipId") REFERENCES "Membership"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_revokedById_fkey" FOREIGN KEY ("revokedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_madeWithId_fkey" FOREIGN KEY ("madeWithId") REFERENCES "ApiToken"("id") ON DELETE SET NULL ON UPDATE CASCADE;
