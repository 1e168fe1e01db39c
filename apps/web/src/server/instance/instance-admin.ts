/**
 * Who administers the installation, as the web app decides it: the seed's admin, and the
 * verified accounts SWITCHYARD_INSTANCE_ADMINS names. Every instance operation asks again.
 */
import { AppError } from "@switchyard/core/errors";
import { findPeople, isInstanceAdmin, listInstanceAdmins, type Db } from "@switchyard/db";
import { env } from "~/env";

export const instanceAdminOf = (db: Db, userId: string) =>
  isInstanceAdmin(db, userId, env().SWITCHYARD_INSTANCE_ADMINS);

export const requireInstanceAdmin = async (db: Db, userId: string) => {
  if (!(await instanceAdminOf(db, userId)))
    throw new AppError("FORBIDDEN", "only an instance admin may do this");
};

export const instanceAdmins = async (db: Db, userId: string) => {
  await requireInstanceAdmin(db, userId);
  return listInstanceAdmins(db, env().SWITCHYARD_INSTANCE_ADMINS);
};

/** People on the installation, for an instance admin to find someone to hand a reset link. */
export const instancePeople = async (
  db: Db,
  userId: string,
  input: { query: string; limit: number },
) => {
  await requireInstanceAdmin(db, userId);
  return findPeople(db, input.query, input.limit);
};
