/** What runs each git repository operation (contract/git.types.ts), on both surfaces. */
import { gitOperations } from "../contract/git.types";
import { implement } from "../api/implement";
import { egressOr } from "../egress";
import {
  linkGitSource,
  listTeamGitSources,
  readGitSource,
  syncTeamGitSource,
  unlinkGitSource,
} from "./git-operations";

export const gitApi = implement(gitOperations, {
  list: ({ db, caller }) => listTeamGitSources(db, caller),
  get: ({ db, caller }, input) => readGitSource(db, caller, input.id),
  link: (services, input) =>
    linkGitSource(
      { db: services.db, keyring: services.keyring, egress: egressOr(services.egress) },
      services.caller,
      input,
    ),
  sync: (services, input) =>
    syncTeamGitSource(
      { db: services.db, keyring: services.keyring, egress: egressOr(services.egress) },
      services.caller,
      input.id,
    ),
  unlink: ({ db, caller }, input) => unlinkGitSource(db, caller, input.id),
});
