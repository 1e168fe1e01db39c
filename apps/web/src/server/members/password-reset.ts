/**
 * Password reset links an admin issues for a member: mailed to the member when the server
 * has an SMTP server (SWITCHYARD_SMTP_URL), shown to the admin once otherwise. An admin
 * resets members and viewers; an owner anyone but themselves (they change their own in
 * Settings → Account). The link's page sets a new password and ends the old sessions.
 */
import nodemailer from "nodemailer";
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import { checkNewPassword, createPasswordReset, getMembership, getUser, hashPassword, usePasswordReset, type Db, type Role } from "@switchyard/db";
import { requireRole } from "../trpc/init";

export type ResetMail = { smtpUrl: string; from: string };
export type ResetDeps = { db: Db; mail?: ResetMail; /** the dashboard's address, for the mailed link */ baseUrl?: string };
type Actor = { teamId: string; userId: string; role: Role };

export const issuePasswordReset = async (deps: ResetDeps, actor: Actor, input: { userId: string }) => {
  requireRole("admin", actor.role);
  if (input.userId === actor.userId) throw new AppError("BAD_REQUEST", "change your own password in Settings → Account", { location: { path: "userId" } });
  const membership = await getMembership(deps.db, actor.teamId, input.userId);
  const user = membership ? await getUser(deps.db, input.userId) : null;
  if (!membership || !user) throw new AppError("NOT_FOUND", "no such member of this team");
  if (actor.role !== "owner" && roleAtLeast(membership.role, "admin")) throw new AppError("FORBIDDEN", "only an owner may reset an admin's or an owner's password");
  const reset = await createPasswordReset(deps.db, { teamId: actor.teamId, userId: input.userId, createdById: actor.userId });
  const path = `/reset/${reset.token}`;
  if (deps.mail && deps.baseUrl) {
    const transport = nodemailer.createTransport(deps.mail.smtpUrl);
    try {
      await transport.sendMail({
        from: deps.mail.from,
        to: user.email,
        subject: "Set a new Switchyard password",
        text: `Hello ${user.name},\n\nAn admin of your Switchyard team made a link for you to set a new password. It works once, within an hour:\n\n${new URL(path, deps.baseUrl).toString()}\n\nSetting a new password signs you out everywhere.\n`,
      });
    } catch (cause) {
      throw new AppError("SYSTEM.CONFIG", "the reset mail could not be sent: check SWITCHYARD_SMTP_URL", { cause });
    } finally {
      transport.close();
    }
    return { mailedTo: user.email, path: null, expiresAt: reset.expiresAt };
  }
  return { mailedTo: null, path, expiresAt: reset.expiresAt };
};

/** Sets the new password through a link, within the password limits; the link is used up. */
export const resetPassword = async (db: Db, input: { token: string; password: string }) => {
  checkNewPassword(input.password, "password");
  return usePasswordReset(db, { token: input.token, passwordHash: await hashPassword(input.password) });
};
