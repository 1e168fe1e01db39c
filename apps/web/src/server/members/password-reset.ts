/**
 * Password reset links. Accounts belong to the whole installation, not to a team, so a
 * team admin never receives a way to set someone else's password: from the Members page
 * (an admin resets members and viewers, an owner anyone but themselves) the link is mailed
 * to the member's own address when the server has an SMTP server (SWITCHYARD_SMTP_URL);
 * without one, only an instance admin is shown a link for someone else, once, and a team
 * admin is told to ask one. Instance admins also issue links for anyone on the
 * installation from Settings → Instance. The link's page sets a new password, ends the old
 * sessions and revokes the API tokens made since a reset link was issued.
 */
import nodemailer from "nodemailer";
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import {
  checkNewPassword,
  createPasswordReset,
  getMembership,
  getUser,
  hashPassword,
  usePasswordReset,
  type Db,
  type Role,
} from "@switchyard/db";
import { env } from "~/env";
import { requireRole } from "../trpc/init";

export type ResetMail = { smtpUrl: string; from: string };
export type ResetDeps = {
  db: Db;
  mail?: ResetMail;
  /** the dashboard's address, for the mailed link */ baseUrl?: string;
};
/** The server's mail for reset links, from its environment (none without SWITCHYARD_SMTP_URL). */
export const resetDeps = (db: Db): ResetDeps => {
  const { SWITCHYARD_SMTP_URL, SWITCHYARD_SMTP_FROM, AUTH_URL } = env();
  return {
    db,
    mail: SWITCHYARD_SMTP_URL
      ? { smtpUrl: SWITCHYARD_SMTP_URL, from: SWITCHYARD_SMTP_FROM }
      : undefined,
    baseUrl: AUTH_URL || undefined,
  };
};

/** `teamId` null: an instance admin's link from Settings → Instance, outside any team. */
type Issuer = { teamId: string | null; userId: string; instanceAdmin: boolean };

const NEEDS_MAIL =
  "this server cannot mail the link to the member's own address (no SWITCHYARD_SMTP_URL), and a team admin is never given a way to set someone else's password: ask an instance admin to issue the link (Settings → Instance), or the member changes it on the Account page while signed in";

/** Makes the link and sends it to the user, or (an instance admin, no SMTP) hands it back once. */
const issue = async (
  deps: ResetDeps,
  issuer: Issuer,
  user: { id: string; email: string; name: string },
) => {
  const mail = deps.mail && deps.baseUrl ? { ...deps.mail, baseUrl: deps.baseUrl } : undefined;
  if (!mail && !issuer.instanceAdmin)
    throw new AppError("USER.ACCOUNT.RESET_NEEDS_MAIL", NEEDS_MAIL);
  const reset = await createPasswordReset(deps.db, {
    teamId: issuer.teamId,
    userId: user.id,
    createdById: issuer.userId,
    mailed: mail !== undefined,
  });
  const path = `/reset/${reset.token}`;
  if (!mail) return { mailedTo: null, path, expiresAt: reset.expiresAt };
  const transport = nodemailer.createTransport(mail.smtpUrl);
  try {
    await transport.sendMail({
      from: mail.from,
      to: user.email,
      subject: "Set a new Switchyard password",
      text: `Hello ${user.name},\n\nSomeone made a link for you to set a new Switchyard password. It works once, within an hour:\n\n${new URL(path, mail.baseUrl).toString()}\n\nSetting a new password signs you out everywhere. If you did not ask for it, ignore this mail: your password stays as it is.\n`,
    });
  } catch (cause) {
    throw new AppError(
      "SYSTEM.CONFIG",
      "the reset mail could not be sent: check SWITCHYARD_SMTP_URL",
      { cause },
    );
  } finally {
    transport.close();
  }
  return { mailedTo: user.email, path: null, expiresAt: reset.expiresAt };
};

const notYourself = (actorId: string, userId: string) => {
  if (userId === actorId)
    throw new AppError("BAD_REQUEST", "change your own password in Settings → Account", {
      location: { path: "userId" },
    });
};

/** From the Members page: a member of the actor's team, by the team's rules. */
export const issuePasswordReset = async (
  deps: ResetDeps,
  actor: { teamId: string; userId: string; role: Role; instanceAdmin: boolean },
  input: { userId: string },
) => {
  requireRole("admin", actor.role);
  notYourself(actor.userId, input.userId);
  const membership = await getMembership(deps.db, actor.teamId, input.userId);
  const user = membership ? await getUser(deps.db, input.userId) : null;
  if (!membership || !user) throw new AppError("NOT_FOUND", "no such member of this team");
  if (actor.role !== "owner" && roleAtLeast(membership.role, "admin"))
    throw new AppError("FORBIDDEN", "only an owner may reset an admin's or an owner's password");
  return issue(deps, actor, user);
};

/** From Settings → Instance (the caller checked the actor is an instance admin): anyone on the installation but themselves. */
export const issueInstancePasswordReset = async (
  deps: ResetDeps,
  actor: { userId: string },
  input: { userId: string },
) => {
  notYourself(actor.userId, input.userId);
  const user = await getUser(deps.db, input.userId);
  if (!user) throw new AppError("NOT_FOUND", "no such person on this installation");
  return issue(deps, { teamId: null, userId: actor.userId, instanceAdmin: true }, user);
};

/** Sets the new password through a link, within the password limits; the link is used up. */
export const resetPassword = async (db: Db, input: { token: string; password: string }) => {
  checkNewPassword(input.password, "password");
  return usePasswordReset(db, {
    token: input.token,
    passwordHash: await hashPassword(input.password),
  });
};
