-- Dynamically registered OAuth clients, kept per team, authorization server and redirect URI
-- CreateTable
CREATE TABLE "OAuthClient" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "tokenEndpointAuthMethod" TEXT,
    "secretId" TEXT,
    "secretExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthClient_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OAuthClient_secretId_key" ON "OAuthClient"("secretId");

-- CreateIndex
CREATE UNIQUE INDEX "OAuthClient_teamId_issuer_redirectUri_key" ON "OAuthClient"("teamId", "issuer", "redirectUri");

-- AddForeignKey
ALTER TABLE "OAuthClient" ADD CONSTRAINT "OAuthClient_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthClient" ADD CONSTRAINT "OAuthClient_secretId_fkey" FOREIGN KEY ("secretId") REFERENCES "Credential"("id") ON DELETE SET NULL ON UPDATE CASCADE;

