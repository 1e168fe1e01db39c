/**
 * The team's members (Settings → Members): every member lists them; admins change roles
 * and remove members (owners alone touch the owner role); anyone leaves but the last owner.
 */
import { changeRole, leaveTeam, listMembers, removeMember } from "../../members/member-operations";
import { changeRoleInput, changeRoleResponse, memberIdInput, memberList, removeMemberResponse } from "../../contract/members.types";
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
});
