-- The sealed client secret an admin gives a connector's pre-registered OAuth client
-- AlterTable
ALTER TABLE "Connector" ADD COLUMN     "clientSecretId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Connector_clientSecretId_key" ON "Connector"("clientSecretId");

-- AddForeignKey
ALTER TABLE "Connector" ADD CONSTRAINT "Connector_clientSecretId_fkey" FOREIGN KEY ("clientSecretId") REFERENCES "Credential"("id") ON DELETE SET NULL ON UPDATE CASCADE;

