-- Keeps the sealed ID token of a person's latest sign-in, for enterprise (cross-app access) connectors
-- CreateTable
CREATE TABLE "SsoIdToken" (
    "identityId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "wrappedKey" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "authTag" BYTEA NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoIdToken_pkey" PRIMARY KEY ("identityId")
);

-- AddForeignKey
ALTER TABLE "SsoIdToken" ADD CONSTRAINT "SsoIdToken_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "UserIdentity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

