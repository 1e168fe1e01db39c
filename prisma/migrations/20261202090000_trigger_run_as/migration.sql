-- A trigger's runs start as the member it is bound to: its creator until an admin changes
-- it, then that admin. The column keeps its values (every trigger still runs as its creator).
ALTER TABLE "Trigger" RENAME COLUMN "createdById" TO "runAsUserId";
