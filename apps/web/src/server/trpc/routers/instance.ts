/**
 * The installation (Settings → Instance): what the signed-in user may do here, and for
 * instance admins its settings, their changes (audited without a team), its audit entries
 * and who its admins are. Signed-in users only; every procedure but `me` needs an instance
 * admin, whatever their role in any team.
 */
import { auditListInput, auditPage } from "../../contract/audit.types";
import { instanceAdminList, instanceMe as instanceMeShape, instanceSettings as instanceSettingsShape, updateInstanceInput } from "../../contract/instance.types";
import { instanceAdmins } from "../../instance/instance-admin";
import { instanceAuditLog, instanceMe, instanceSettings, updateInstance } from "../../instance/instance-operations";
import { authedProcedure, router } from "../init";

export const instanceRouter = router({
  me: authedProcedure.output(instanceMeShape).query(({ ctx }) => instanceMe(ctx.db, ctx.userId)),
  settings: authedProcedure.output(instanceSettingsShape).query(({ ctx }) => instanceSettings(ctx.db, ctx)),
  update: authedProcedure
    .input(updateInstanceInput)
    .output(instanceSettingsShape)
    .mutation(({ ctx, input }) => updateInstance(ctx.db, ctx, input)),
  audit: authedProcedure
    .input(auditListInput)
    .output(auditPage)
    .query(({ ctx, input }) => instanceAuditLog(ctx.db, ctx, input)),
  admins: authedProcedure.output(instanceAdminList).query(({ ctx }) => instanceAdmins(ctx.db, ctx.userId)),
});
