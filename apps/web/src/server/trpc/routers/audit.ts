import { auditListInput, auditPage } from "../../contract/audit.types";
import { listTeamAuditLog } from "../../audit/list-audit-log";
import { router, teamProcedure } from "../init";

/** The team's audit log, for admins: newest first, a page at a time, by action prefix. */
export const auditRouter = router({
  list: teamProcedure
    .input(auditListInput)
    .output(auditPage)
    .query(({ ctx, input }) => listTeamAuditLog(ctx.db, ctx, input)),
});
