-- Why a connector credential needs reconnecting: its OAuth refresh was refused
-- (refresh_refused), or the connector's destination changed (destination_changed).
-- Rows marked before this column existed were refused refreshes.
ALTER TABLE "ConnectorCredential" ADD COLUMN "reconnectReason" TEXT;
UPDATE "ConnectorCredential" SET "reconnectReason" = 'refresh_refused' WHERE "status" = 'needs_reconnect';
