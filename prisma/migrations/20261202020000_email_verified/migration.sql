-- Whether an account's email is known to be its owner's. Accounts made before are taken as
-- verified (made by the operator's seed, through an invitation bound to their email, or
-- through an issuer), except those that cannot have been: accounts that signed up through
-- an invitation that named no email (the sign-up accepted it in the same transaction), and
-- accounts an issuer made without a password (whether it verified the email was not kept:
-- their next sign-in through an issuer that verifies it verifies them again).

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailVerifiedAt" TIMESTAMP(3);

UPDATE "User" u SET "emailVerifiedAt" = u."createdAt"
WHERE NOT EXISTS (
    SELECT 1 FROM "Invitation" i
    WHERE i."acceptedById" = u."id" AND i."email" IS NULL
      AND i."acceptedAt" BETWEEN u."createdAt" - interval '5 minutes' AND u."createdAt" + interval '5 minutes'
  )
  AND NOT (u."passwordHash" IS NULL AND EXISTS (SELECT 1 FROM "UserIdentity" ui WHERE ui."userId" = u."id"));
