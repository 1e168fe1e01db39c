/**
 * Request and response shapes of a team's members and invitations (Settings → Members and
 * /invite/<token>), shared by the tRPC procedures, the REST routes and the OpenAPI document.
 * An invitation's link token is in the answer that makes it, and nowhere else.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "@switchyard/db";
import { teamRole } from "./teams.types";
import { timestamp } from "./timestamp";

export const member = z.object({ userId: z.string(), name: z.string(), email: z.string(), role: teamRole, joinedAt: timestamp });
export const memberList = z.array(member);
export const listMembersResponse = z.object({ members: memberList });
export const changeRoleBody = z.object({ role: teamRole });
export const changeRoleInput = changeRoleBody.extend({ userId: z.string().min(1) });
export const memberIdInput = z.object({ userId: z.string().min(1) });
export const changeRoleResponse = z.object({ userId: z.string(), role: teamRole });
export const removeMemberResponse = z.object({ userId: z.string() });

export const invitation = z.object({ id: z.string(), role: teamRole, email: z.string().nullable(), expiresAt: timestamp, createdAt: timestamp });
export const invitationList = z.array(invitation);
export const listInvitationsResponse = z.object({ invitations: invitationList });
export const createInvitationBody = z.object({
  role: teamRole.describe("the role the invited person gets"),
  email: z.email().max(320).optional().describe("only this email may accept; anyone holding the link when left out"),
  expiresInDays: z.number().int().min(1).max(30).default(7).describe("days until the link expires, 1 to 30 (7 by default)"),
});
/** A new invitation: its token (and the link made of it) are in this answer only. */
export const createInvitationResponse = invitation.extend({ token: z.string(), path: z.string().describe("the link to send, under this server: /invite/<token>") });
export const invitationIdInput = z.object({ id: z.string().min(1) });
export const revokeInvitationResponse = z.object({ id: z.string() });

export const invitationTokenInput = z.object({ token: z.string().min(1).max(200) });
export const invitationPreview = z.object({ team: z.object({ id: z.string(), name: z.string() }), role: teamRole, email: z.string().nullable(), expiresAt: timestamp });
export const acceptInvitationResponse = z.object({ teamId: z.string(), teamName: z.string(), role: teamRole });
export const signUpInput = invitationTokenInput.extend({
  name: z.string().trim().min(1, "give your name").max(120),
  email: z.email().max(320),
  password: z.string().max(PASSWORD_MAX_LENGTH),
});

export const issueResetInput = z.object({ userId: z.string().min(1) });
/** Mailed (mailedTo) when the server has an SMTP server; otherwise the link's path, in this answer only. */
export const issueResetResponse = z.object({ mailedTo: z.string().nullable(), path: z.string().nullable(), expiresAt: timestamp });
