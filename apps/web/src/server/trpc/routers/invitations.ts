/**
 * Invitations by link: admins make (the link is shown once), list and revoke them; the
 * invitation page shows a link's team and role to anyone holding it, a signed-in user
 * accepts, and a visitor signs up through it.
 */
import {
  cancelInvitation,
  inviteMember,
  joinByInvitation,
  listInvitations,
  previewInvitation,
  signUpByInvitation,
} from "../../members/member-operations";
import {
  acceptInvitationResponse,
  createInvitationBody,
  createInvitationResponse,
  invitationIdInput,
  invitationList,
  invitationPreview,
  invitationTokenInput,
  revokeInvitationResponse,
  signUpInput,
} from "../../contract/members.types";
import { authedProcedure, publicProcedure, router, teamProcedure } from "../init";

export const invitationsRouter = router({
  list: teamProcedure.output(invitationList).query(({ ctx }) => listInvitations(ctx.db, ctx)),
  create: teamProcedure
    .input(createInvitationBody)
    .output(createInvitationResponse)
    .mutation(({ ctx, input }) => inviteMember(ctx.db, ctx, input)),
  revoke: teamProcedure
    .input(invitationIdInput)
    .output(revokeInvitationResponse)
    .mutation(({ ctx, input }) => cancelInvitation(ctx.db, ctx, input)),
  preview: publicProcedure
    .input(invitationTokenInput)
    .output(invitationPreview)
    .query(({ ctx, input }) => previewInvitation(ctx.db, input.token)),
  accept: authedProcedure
    .input(invitationTokenInput)
    .output(acceptInvitationResponse)
    .mutation(({ ctx, input }) => joinByInvitation(ctx.db, ctx.userId, input.token)),
  signUp: publicProcedure
    .input(signUpInput)
    .output(acceptInvitationResponse)
    .mutation(async ({ ctx, input }) => {
      const { teamId, teamName, role } = await signUpByInvitation(ctx.db, input);
      return { teamId, teamName, role };
    }),
});
