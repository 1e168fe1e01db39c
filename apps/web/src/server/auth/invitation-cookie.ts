/**
 * The invitation a visitor signs in through the issuer with: remembered in a short-lived
 * cookie sent only to the sign-in routes, so a first sign-in of someone new may make their
 * account (and join the invitation's team) while the installation admits new people by
 * invitation only. The cookie only names the invitation; the sign-in checks it as
 * accepting it would.
 */
import { cookies } from "next/headers";

const NAME = "switchyard-invitation";
const SHAPE = /^inv_[A-Za-z0-9_-]{43}$/;

/** The invitation token a path of the form /invite/<token> names, if any. */
export const invitationIn = (path: string) => {
  const token = /^\/invite\/([^/?#]+)$/.exec(path)?.[1];
  return token && SHAPE.test(token) ? token : undefined;
};

/** In a server action, before sending the visitor to the issuer. */
export const rememberInvitation = async (token: string) => {
  if (!SHAPE.test(token)) return;
  (await cookies()).set(NAME, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: process.env.NODE_ENV === "production",
    path: "/api/auth",
    maxAge: 15 * 60,
  });
};

/**
 * In the sign-in callback: the remembered invitation, if any, forgotten as it is read, so it
 * serves one sign-in only (not the next person's on a shared browser).
 */
export const takeRememberedInvitation = async () => {
  const jar = await cookies();
  const token = jar.get(NAME)?.value;
  if (token !== undefined) jar.delete({ name: NAME, path: "/api/auth" });
  return token && SHAPE.test(token) ? token : undefined;
};
