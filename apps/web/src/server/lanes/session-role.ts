/**
 * Who the signed-in user is in the team the session acts in, for pages that show admins
 * more than members (lanes, connectors, the audit log). Only what a page draws depends on
 * it: every procedure checks the role again.
 */
import { roleAtLeast } from "@switchyard/core/policy";
import { findMembership, membershipsOf } from "@switchyard/db";
import { auth } from "../auth/auth";
import { db } from "../services";

export const sessionMember = async () => {
  const session = await auth();
  const userId = session?.user.id;
  if (!userId) return { userId: undefined, isAdmin: false };
  const membership = session.teamId
    ? await findMembership(db(), userId, { teamId: session.teamId })
    : (await membershipsOf(db(), userId))[0];
  return { userId, isAdmin: membership ? roleAtLeast(membership.role, "admin") : false };
};
