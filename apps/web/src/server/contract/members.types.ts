/**
 * Request and response shapes of a team's members and invitations (Settings → Members and
 * /invite/<token>), shared by the tRPC procedures, the REST routes and the OpenAPI document.
 * An invitation's link token is in the answer that makes it, and nowhere else.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "@switchyard/db";
import { operation } from "./operation";
import { teamRole } from "./teams.types";
import { timestamp } from "./timestamp";

export const member = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: teamRole,
  joinedAt: timestamp,
});
export const memberList = z.array(member);
export const listMembersResponse = z.object({ members: memberList });
export const changeRoleBody = z.object({ role: teamRole });
export const changeRoleInput = changeRoleBody.extend({ userId: z.string().min(1) });
export const memberIdInput = z.object({ userId: z.string().min(1) });
export const changeRoleResponse = z.object({ userId: z.string(), role: teamRole });
export const removeMemberResponse = z.object({ userId: z.string() });

export const invitation = z.object({
  id: z.string(),
  role: teamRole,
  email: z.string().nullable(),
  expiresAt: timestamp,
  createdAt: timestamp,
});
export const invitationList = z.array(invitation);
export const listInvitationsResponse = z.object({ invitations: invitationList });
export const createInvitationBody = z.object({
  role: teamRole.describe("the role the invited person gets"),
  email: z
    .email()
    .max(320)
    .optional()
    .describe("only this email may accept; anyone holding the link when left out"),
  expiresInDays: z
    .number()
    .int()
    .min(1)
    .max(30)
    .default(7)
    .describe("days until the link expires, 1 to 30 (7 by default)"),
});
/** A new invitation: its token (and the link made of it) are in this answer only. */
export const createInvitationResponse = invitation.extend({
  token: z.string(),
  path: z.string().describe("the link to send, under this server: /invite/<token>"),
});
export const invitationIdInput = z.object({ id: z.string().min(1) });
export const revokeInvitationResponse = z.object({ id: z.string() });

export const invitationTokenInput = z.object({ token: z.string().min(1).max(200) });
export const invitationPreview = z.object({
  team: z.object({ id: z.string(), name: z.string() }),
  role: teamRole,
  email: z.string().nullable(),
  expiresAt: timestamp,
});
export const acceptInvitationResponse = z.object({
  teamId: z.string(),
  teamName: z.string(),
  role: teamRole,
});
export const signUpInput = invitationTokenInput.extend({
  name: z.string().trim().min(1, "give your name").max(120),
  email: z.email().max(320),
  password: z.string().max(PASSWORD_MAX_LENGTH),
});

export const issueResetInput = z.object({ userId: z.string().min(1) });
/** Mailed (mailedTo) when the server has an SMTP server; otherwise the link's path, in this answer only. */
export const issueResetResponse = z.object({
  mailedTo: z.string().nullable(),
  path: z.string().nullable(),
  expiresAt: timestamp,
});

export const memberOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: memberList,
    rest: {
      method: "GET",
      path: "/members",
      summary: "The team's members: name, email, role and when each joined",
      status: 200,
      description: "Members",
      wrap: "members",
      response: listMembersResponse,
    },
  }),
  changeRole: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: changeRoleInput,
    output: changeRoleResponse,
    rest: {
      method: "PUT",
      path: "/members/{userId}",
      summary:
        "Admins: change a member's role; only an owner grants or takes away owner, and the last owner keeps it",
      body: changeRoleBody,
      status: 200,
      description: "The member's new role",
      errors: { 409: "The last owner" },
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: memberIdInput,
    output: removeMemberResponse,
    rest: {
      method: "DELETE",
      path: "/members/{userId}",
      summary:
        "Admins: remove a member from the team (an owner only by an owner; never the last owner); their sessions and API tokens in the team stop at once",
      status: 200,
      description: "Removed",
      errors: { 409: "The last owner" },
    },
  }),
  leave: operation({
    kind: "mutation",
    access: "team",
    output: removeMemberResponse,
    rest: { only: "a member leaves in person, in the dashboard" },
  }),
  /** A one-time link for a member to set a new password: mailed to them when the server has SMTP; else shown once, to an instance admin only. */
  issuePasswordReset: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: issueResetInput,
    output: issueResetResponse,
    rest: { only: "a reset link is shown once, in the dashboard, where the server cannot mail it" },
  }),
};

export const invitationOperations = {
  list: operation({
    kind: "query",
    access: "team",
    role: "admin",
    output: invitationList,
    rest: {
      method: "GET",
      path: "/invitations",
      summary: "Admins: the team's pending invitations (never their links)",
      status: 200,
      description: "Pending invitations",
      wrap: "invitations",
      response: listInvitationsResponse,
    },
  }),
  create: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: createInvitationBody,
    output: createInvitationResponse,
    rest: {
      method: "POST",
      path: "/invitations",
      summary:
        "Admins: invite by link (an owner only by an owner); the token and its path are in this answer only",
      body: createInvitationBody,
      status: 201,
      description: "The invitation and its link",
    },
  }),
  revoke: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: invitationIdInput,
    output: revokeInvitationResponse,
    rest: {
      method: "DELETE",
      path: "/invitations/{id}",
      summary: "Admins: revoke a pending invitation; its link stops working",
      status: 200,
      description: "Revoked",
    },
  }),
  preview: operation({
    kind: "query",
    access: "public",
    input: invitationTokenInput,
    output: invitationPreview,
    rest: { only: "the invitation page's, for whoever holds the link" },
  }),
  accept: operation({
    kind: "mutation",
    access: "authed",
    input: invitationTokenInput,
    output: acceptInvitationResponse,
    rest: { only: "a signed-in user accepts on the invitation page" },
  }),
  signUp: operation({
    kind: "mutation",
    access: "public",
    input: signUpInput,
    output: acceptInvitationResponse,
    rest: { only: "a visitor signs up on the invitation page" },
  }),
};
