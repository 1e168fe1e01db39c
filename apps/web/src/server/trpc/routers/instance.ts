/**
 * The installation (Settings → Instance): what the signed-in user may do here, and for
 * instance admins its settings, their changes (audited without a team), its audit entries,
 * who its admins are, its people and a password reset link for any of them. Signed-in users only; every procedure but `me` needs an instance
 * admin, whatever their role in any team.
 */
import { auditListInput, auditPage } from "../../contract/audit.types";
import { instanceAdminList, instanceMe as instanceMeShape, instanceSettings as instanceSettingsShape, peopleInput, personList, updateInstanceInput } from "../../contract/instance.types";
import { issueResetInput, issueResetResponse } from "../../contract/members.types";
import { instanceAdmins, instancePeople, requireInstanceAdmin } from "../../instance/instance-admin";
import { issueInstancePasswordReset, resetDeps } from "../../members/password-reset";
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
  people: authedProcedure
    .input(peopleInput)
    .output(personList)
    .query(({ ctx, input }) => instancePeople(ctx.db, ctx.userId, input)),
  /** A one-time link for anyone on the installation to set a new password: mailed to them when the server has SMTP, else shown here once. */
  issuePasswordReset: authedProcedure
    .input(issueResetInput)
    .output(issueResetResponse)
    .mutation(async ({ ctx, input }) => {
      await requireInstanceAdmin(ctx.db, ctx.userId);
      return issueInstancePasswordReset(resetDeps(ctx.db), ctx, input);
    }),
});
