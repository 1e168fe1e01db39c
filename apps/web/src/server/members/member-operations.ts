/**
 * A team's members and invitations, for the dashboard's procedures and the REST API alike.
 * Every member lists the members; admins change roles, remove members and manage
 * invitations; only an owner grants the owner role, takes it away, removes an owner or
 * invites an owner; the last owner stays. Anyone may leave, except the last owner.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import {
  acceptInvitation,
  changeMemberRole,
  checkNewPassword,
  createInvitation,
  describeInvitation,
  hashPassword,
  listPendingInvitations,
  listTeamMembers,
  readInstanceSettings,
  removeTeamMember,
  revokeInvitation,
  signUpWithInvitation,
  type Db,
  type Role,
} from "@switchyard/db";
import { oidcConfig } from "../auth/oidc-config";
import type { changeRoleInput, createInvitationBody, signUpInput } from "../contract/members.types";
import { requireRole } from "../trpc/init";

export type MemberActor = { teamId: string; userId: string; role: Role };

const ownerOnly = (actor: MemberActor, what: string) => {
  if (actor.role !== "owner") throw new AppError("FORBIDDEN", `only an owner may ${what}`);
};

export const listMembers = (db: Db, actor: MemberActor) => listTeamMembers(db, actor.teamId);

export const changeRole = async (
  db: Db,
  actor: MemberActor,
  input: z.infer<typeof changeRoleInput>,
) => {
  requireRole("admin", actor.role);
  return changeMemberRole(db, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    userId: input.userId,
    role: input.role,
    allow: (current) => {
      if (current === "owner" || input.role === "owner")
        ownerOnly(actor, "grant or take away the owner role");
    },
  });
};

export const removeMember = async (db: Db, actor: MemberActor, input: { userId: string }) => {
  requireRole("admin", actor.role);
  return removeTeamMember(db, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    userId: input.userId,
    allow: (current) => {
      if (current === "owner") ownerOnly(actor, "remove an owner");
    },
  });
};

export const leaveTeam = (db: Db, actor: MemberActor) =>
  removeTeamMember(db, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    userId: actor.userId,
    allow: () => undefined,
  });

export const listInvitations = async (db: Db, actor: MemberActor) => {
  requireRole("admin", actor.role);
  return listPendingInvitations(db, actor.teamId);
};

export const inviteMember = async (
  db: Db,
  actor: MemberActor,
  input: z.infer<typeof createInvitationBody>,
) => {
  requireRole("admin", actor.role);
  if (input.role === "owner") ownerOnly(actor, "invite an owner");
  const created = await createInvitation(db, {
    teamId: actor.teamId,
    createdById: actor.userId,
    role: input.role,
    email: input.email,
    expiresAt: new Date(Date.now() + input.expiresInDays * 86_400_000),
  });
  return { ...created, path: `/invite/${created.token}` };
};

export const cancelInvitation = async (db: Db, actor: MemberActor, input: { id: string }) => {
  requireRole("admin", actor.role);
  if (
    !(await revokeInvitation(db, { teamId: actor.teamId, actorUserId: actor.userId, id: input.id }))
  ) {
    throw new AppError("NOT_FOUND", "no pending invitation with this id");
  }
  return { id: input.id };
};

export const previewInvitation = (db: Db, token: string) => describeInvitation(db, token);

export const joinByInvitation = (db: Db, userId: string, token: string) =>
  acceptInvitation(db, { token, userId });

/**
 * A visitor's sign-up through a link with a password, which follows the same limits as a
 * changed one; refused while the installation signs in through single sign-on only (the
 * invitation page offers the issuer instead).
 */
export const signUpByInvitation = async (db: Db, input: z.infer<typeof signUpInput>) => {
  if (oidcConfig() && (await readInstanceSettings(db)).ssoOnly) {
    throw new AppError(
      "USER.INSTANCE.SSO_ONLY",
      "this installation signs in through single sign-on only: continue with it from the invitation page",
    );
  }
  checkNewPassword(input.password, "password");
  // Checked before the slow hash, so an unusable link answers at once.
  await describeInvitation(db, input.token);
  const passwordHash = await hashPassword(input.password);
  return signUpWithInvitation(db, {
    token: input.token,
    name: input.name,
    email: input.email,
    passwordHash,
  });
};
