/**
 * The team's members and invitations over REST, with the dashboard's contract: every
 * member lists the members; admins change roles, remove members and manage invitations
 * (owners alone touch the owner role; the last owner stays). A new invitation's token is in
 * the answer that makes it, and nowhere else.
 */
import {
  changeRoleBody,
  changeRoleResponse,
  createInvitationBody,
  createInvitationResponse,
  listInvitationsResponse,
  listMembersResponse,
  removeMemberResponse,
  revokeInvitationResponse,
} from "../../contract/members.types";
import {
  cancelInvitation,
  changeRole,
  inviteMember,
  listInvitations,
  listMembers,
  removeMember,
} from "../../members/member-operations";
import { answer, parse, routeFinder, type Route } from "../route-kit";

export const memberRoutes: Route[] = [
  {
    method: "GET",
    path: "/members",
    summary: "The team's members: name, email, role and when each joined",
    status: 200,
    description: "Members",
    response: listMembersResponse,
    handler: async ({ deps, caller }) =>
      answer(routeOf("GET", "/members"), { members: await listMembers(deps.db, caller) }),
  },
  {
    method: "PUT",
    path: "/members/{userId}",
    summary:
      "Admins: change a member's role; only an owner grants or takes away owner, and the last owner keeps it",
    body: changeRoleBody,
    status: 200,
    description: "The member's new role",
    response: changeRoleResponse,
    errors: { 409: "The last owner" },
    handler: async ({ deps, caller, params, body }) =>
      answer(
        routeOf("PUT", "/members/{userId}"),
        await changeRole(deps.db, caller, {
          ...(await parse(changeRoleBody, body)),
          userId: params[0]!,
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/members/{userId}",
    summary:
      "Admins: remove a member from the team (an owner only by an owner; never the last owner); their sessions and API tokens in the team stop at once",
    status: 200,
    description: "Removed",
    response: removeMemberResponse,
    errors: { 409: "The last owner" },
    handler: async ({ deps, caller, params }) =>
      answer(
        routeOf("DELETE", "/members/{userId}"),
        await removeMember(deps.db, caller, { userId: params[0]! }),
      ),
  },
  {
    method: "GET",
    path: "/invitations",
    summary: "Admins: the team's pending invitations (never their links)",
    status: 200,
    description: "Pending invitations",
    response: listInvitationsResponse,
    handler: async ({ deps, caller }) =>
      answer(routeOf("GET", "/invitations"), {
        invitations: await listInvitations(deps.db, caller),
      }),
  },
  {
    method: "POST",
    path: "/invitations",
    summary:
      "Admins: invite by link (an owner only by an owner); the token and its path are in this answer only",
    body: createInvitationBody,
    status: 201,
    description: "The invitation and its link",
    response: createInvitationResponse,
    handler: async ({ deps, caller, body }) =>
      answer(
        routeOf("POST", "/invitations"),
        await inviteMember(deps.db, caller, await parse(createInvitationBody, body)),
      ),
  },
  {
    method: "DELETE",
    path: "/invitations/{id}",
    summary: "Admins: revoke a pending invitation; its link stops working",
    status: 200,
    description: "Revoked",
    response: revokeInvitationResponse,
    handler: async ({ deps, caller, params }) =>
      answer(
        routeOf("DELETE", "/invitations/{id}"),
        await cancelInvitation(deps.db, caller, { id: params[0]! }),
      ),
  },
];

const routeOf = routeFinder(memberRoutes);
