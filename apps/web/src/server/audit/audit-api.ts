/** What runs the team audit log's operation (contract/audit.types.ts), on both surfaces. */
import { auditOperations } from "../contract/audit.types";
import { implement } from "../api/implement";
import { listTeamAuditLog } from "./list-audit-log";

export const auditApi = implement(auditOperations, {
  list: ({ db, caller }, input) => listTeamAuditLog(db, caller, input),
});
