/**
 * What runs each member and invitation operation (contract/members.types.ts): every member
 * lists the members; admins change roles, remove members, issue password reset links and
 * manage invitations (owners alone touch the owner role; the last owner stays).
 */
import { invitationOperations, memberOperations } from "../contract/members.types";
import { implement } from "../api/implement";
import { instanceAdminOf } from "../instance/instance-admin";
import {
  cancelInvitation,
  changeRole,
  inviteMember,
  joinByInvitation,
  leaveTeam,
  listInvitations,
  listMembers,
  previewInvitation,
  removeMember,
  signUpByInvitation,
} from "./member-operations";
import { issuePasswordReset, resetDeps } from "./password-reset";

export const membersApi = implement(memberOperations, {
  list: ({ db, caller }) => listMembers(db, caller),
  changeRole: ({ db, caller }, input) => changeRole(db, caller, input),
  remove: ({ db, caller }, input) => removeMember(db, caller, input),
  leave: ({ db, caller }) => leaveTeam(db, caller),
  issuePasswordReset: async ({ db, caller }, input) =>
    issuePasswordReset(
      resetDeps(db),
      { ...caller, instanceAdmin: await instanceAdminOf(db, caller.userId) },
      input,
    ),
});

export const invitationsApi = implement(invitationOperations, {
  list: ({ db, caller }) => listInvitations(db, caller),
  create: ({ db, caller }, input) => inviteMember(db, caller, input),
  revoke: ({ db, caller }, input) => cancelInvitation(db, caller, input),
  preview: ({ db }, input) => previewInvitation(db, input.token),
  accept: ({ db, caller }, input) => joinByInvitation(db, caller.userId, input.token),
  signUp: async ({ db }, input) => {
    const { teamId, teamName, role } = await signUpByInvitation(db, input);
    return { teamId, teamName, role };
  },
});
