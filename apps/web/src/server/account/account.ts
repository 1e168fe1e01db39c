/**
 * The signed-in user's own account as the Account page shows it: name, email and whether
 * the email is known to be theirs.
 */
import { getUser, type Db } from "@switchyard/db";

export const accountOf = async (db: Db, userId: string) => {
  const user = await getUser(db, userId);
  return user
    ? { name: user.name, email: user.email, emailVerified: user.emailVerifiedAt !== null }
    : undefined;
};
