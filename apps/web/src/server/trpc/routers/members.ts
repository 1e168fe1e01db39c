/**
 * The team's members (Settings → Members): every member lists them; admins change roles
 * and remove members (owners alone touch the owner role) and issue password reset links
 * (mailed to the member; shown only to an instance admin where the server cannot mail);
 * anyone leaves but the last owner.
 */
import { changeRole, leaveTeam, listMembers, removeMember } from "../../members/member-operations";
import { instanceAdminOf } from "../../instance/instance-admin";
import { issuePasswordReset, resetDeps } from "../../members/password-reset";
import {
  changeRoleInput,
  changeRoleResponse,
  issueResetInput,
  issueResetResponse,
  memberIdInput,
  memberList,
  removeMemberResponse,
} from "../../contract/members.types";
import { router, teamProcedure } from "../init";

export const membersRouter = router({
  list: teamProcedure.output(memberList).query(({ ctx }) => listMembers(ctx.db, ctx)),
  changeRole: teamProcedure
    .input(changeRoleInput)
    .output(changeRoleResponse)
    .mutation(({ ctx, input }) => changeRole(ctx.db, ctx, input)),
  remove: teamProcedure
    .input(memberIdInput)
    .output(removeMemberResponse)
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx, input)),
  leave: teamProcedure.output(removeMemberResponse).mutation(({ ctx }) => leaveTeam(ctx.db, ctx)),
  /** A one-time link for a member to set a new password: mailed to them when the server has SMTP; else shown once, to an instance admin only. */
  issuePasswordReset: teamProcedure
    .input(issueResetInput)
    .output(issueResetResponse)
    .mutation(async ({ ctx, input }) => issuePasswordReset(resetDeps(ctx.db), { ...ctx, instanceAdmin: await instanceAdminOf(ctx.db, ctx.userId) }, input)),
});
