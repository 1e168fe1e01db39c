/**
 * The team's members (Settings → Members): every member lists them; admins change roles
 * and remove members (owners alone touch the owner role) and issue password reset links;
 * anyone leaves but the last owner.
 */
import { changeRole, leaveTeam, listMembers, removeMember } from "../../members/member-operations";
import { env } from "~/env";
import { issuePasswordReset } from "../../members/password-reset";
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
  /** A one-time link for a member to set a new password: mailed when the server has SMTP, else shown here once. */
  issuePasswordReset: teamProcedure
    .input(issueResetInput)
    .output(issueResetResponse)
    .mutation(({ ctx, input }) => {
      const { SWITCHYARD_SMTP_URL, SWITCHYARD_SMTP_FROM, AUTH_URL } = env();
      const mail = SWITCHYARD_SMTP_URL ? { smtpUrl: SWITCHYARD_SMTP_URL, from: SWITCHYARD_SMTP_FROM } : undefined;
      return issuePasswordReset({ db: ctx.db, mail, baseUrl: AUTH_URL || undefined }, ctx, input);
    }),
});
