/**
 * What runs each installation operation (contract/instance.types.ts). Over REST an instance
 * admin's token reads the settings, and changing them needs one that acts as admin or owner
 * (a token made read-only never changes the installation); each change is audited without
 * a team, naming the token it came with.
 */
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import { instanceOperations } from "../contract/instance.types";
import { implement, type UserCaller } from "../api/implement";
import { issueInstancePasswordReset, resetDeps } from "../members/password-reset";
import { instanceAdmins, instancePeople, requireInstanceAdmin } from "./instance-admin";
import {
  instanceAuditLog,
  instanceMe,
  instanceSettings,
  updateInstance,
} from "./instance-operations";

const actorOf = ({ userId, tokenId }: UserCaller) => (tokenId ? { userId, tokenId } : { userId });

export const instanceApi = implement(
  instanceOperations,
  {
    me: ({ db, caller }) => instanceMe(db, caller.userId),
    settings: ({ db, caller }) => instanceSettings(db, actorOf(caller)),
    update: ({ db, caller }, input) => updateInstance(db, actorOf(caller), input),
    audit: ({ db, caller }, input) => instanceAuditLog(db, actorOf(caller), input),
    admins: ({ db, caller }) => instanceAdmins(db, caller.userId),
    people: ({ db, caller }, input) => instancePeople(db, caller.userId, input),
    issuePasswordReset: async ({ db, caller }, input) => {
      await requireInstanceAdmin(db, caller.userId);
      return issueInstancePasswordReset(resetDeps(db), caller, input);
    },
  },
  {
    update: async ({ db, caller }) => {
      await requireInstanceAdmin(db, caller.userId);
      if (!roleAtLeast(caller.role ?? "viewer", "admin"))
        throw new AppError(
          "FORBIDDEN",
          "changing the installation's settings needs a token that acts as admin or owner",
        );
    },
  },
);
