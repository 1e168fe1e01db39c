/**
 * What a session token carries and the check every use of it goes through. Besides the
 * user id it holds the user's session version (a password change moves it on) and the
 * membership the session acts in (a removal from that team deletes it; adding the user
 * back makes a new one). When either no longer matches, the session is over: next-auth
 * drops the cookie and the request is treated as signed out.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { getToken, type JWT } from "next-auth/jwt";
import { AppError } from "@switchyard/core/errors";
import {
  findMembership,
  membershipsOf,
  sessionMembership,
  sessionVersionOf,
  type Db,
} from "@switchyard/db";

export type SessionToken = JWT & { sv?: unknown; mid?: unknown; teamId?: unknown };

export type SessionTokenParams = {
  token: SessionToken;
  user?: { id?: string };
  trigger?: "signIn" | "signUp" | "update";
  /** with trigger "update": what the client asked for; only `teamId` is read */
  session?: unknown;
};

type Membership = NonNullable<Awaited<ReturnType<typeof findMembership>>>;

/** Where a session's check leaves the membership it read, for the rest of the request. */
const checked = new AsyncLocalStorage<{ membership?: Membership | null }>();

/**
 * Runs `check` (next-auth's `auth()`, which checks the session) and answers what it returned
 * with the membership that check read (undefined when it read none): the request's
 * procedures act in it without reading it again.
 */
export const withCheckedMembership = async <T>(check: () => Promise<T>) => {
  const seen: { membership?: Membership | null } = {};
  const value = await checked.run(seen, check);
  return { value, membership: seen.membership ?? undefined };
};

/** The membership of `teamId` that `userId` holds, or FORBIDDEN. */
export const chooseTeam = async (db: Db, userId: string, teamId: string) => {
  const membership = await findMembership(db, userId, { teamId });
  if (!membership) throw new AppError("FORBIDDEN", "you are not a member of this team");
  return membership;
};

const scope = (membership: { id: string; teamId: string } | undefined | null) => ({
  mid: membership?.id,
  teamId: membership?.teamId,
});

const requestedTeam = (session: unknown) => {
  const teamId = (session as { teamId?: unknown } | null | undefined)?.teamId;
  return typeof teamId === "string" ? teamId : undefined;
};

/** next-auth's `jwt` callback: builds the token at sign-in, checks and refreshes it on every use; null ends the session. */
export const refreshSessionToken = async (
  db: Db,
  params: SessionTokenParams,
): Promise<SessionToken | null> => {
  const { token } = params;
  if (params.user?.id) {
    const userId = params.user.id;
    const [sv, memberships] = await Promise.all([
      sessionVersionOf(db, userId),
      membershipsOf(db, userId),
    ]);
    if (sv === undefined) return null;
    return { ...token, sub: userId, sv, ...scope(memberships[0]) };
  }
  if (!token.sub || typeof token.sv !== "number") return null;

  let membership;
  if (typeof token.mid === "string") {
    // The session version and the membership in one statement: every request checks them.
    const checked = await sessionMembership(db, token.sub, token.mid);
    if (checked.sessionVersion !== token.sv || !checked.membership) return null;
    membership = checked.membership;
  } else {
    if ((await sessionVersionOf(db, token.sub)) !== token.sv) return null;
    // Signed in while in no team: the first team the user has joined since, if any.
    membership = (await membershipsOf(db, token.sub))[0];
  }
  const wanted = params.trigger === "update" ? requestedTeam(params.session) : undefined;
  if (wanted && wanted !== membership?.teamId) {
    // Only a team the user is in; any other request leaves the session where it was.
    membership = (await findMembership(db, token.sub, { teamId: wanted })) ?? membership;
  }
  const seen = checked.getStore();
  if (seen) seen.membership = membership;
  return { ...token, ...scope(membership) };
};

/**
 * The session token a request carries (the `__Secure-` cookie over https, the plain one
 * otherwise), decoded but not yet checked; null without a valid one.
 */
export const requestSessionToken = async (
  req: Request,
  secret: string,
): Promise<SessionToken | null> => {
  for (const secureCookie of [true, false]) {
    const token = await getToken({ req, secret, secureCookie });
    if (token) return token;
  }
  return null;
};

/**
 * The team `token` acts in, checked as every use of a session is (refreshSessionToken), and
 * not expired; undefined once the session is over. For responses that outlive the request's
 * own check, such as a run's event stream, which asks again every few seconds.
 */
export const sessionTeam = async (db: Db, token: SessionToken): Promise<string | undefined> => {
  if (typeof token.exp === "number" && token.exp * 1000 <= Date.now()) return undefined;
  const checked = await refreshSessionToken(db, { token });
  return checked?.sub && typeof checked.teamId === "string" ? checked.teamId : undefined;
};
