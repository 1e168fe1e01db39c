-- Each audit entry names the request that made the change (its x-request-id).
ALTER TABLE "AuditLog" ADD COLUMN "requestId" TEXT;
