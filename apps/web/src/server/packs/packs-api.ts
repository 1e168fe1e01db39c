/** What runs each workflow-pack operation (contract/packs.types.ts), on both surfaces. */
import { packOperations } from "../contract/packs.types";
import { implement } from "../api/implement";
import { installPackArchive, listPacks, readPackDetail, removePack } from "./pack-operations";
import { downloadPackRelease } from "./pack-release-download";
import { packToken } from "./pack-token";

export const packsApi = implement(packOperations, {
  list: ({ db, caller }) => listPacks(db, caller),
  get: ({ db, caller }, input) => readPackDetail(db, caller, input.name),
  install: async ({ db, caller, egress, keyring }, input) => {
    if (input.archive !== undefined)
      return installPackArchive(db, caller, Buffer.from(input.archive, "base64"), "upload");
    const token =
      input.tokenSecret === undefined
        ? undefined
        : await packToken(db, keyring(), caller, input.tokenSecret);
    const release = await downloadPackRelease(egress, input.source ?? "", token);
    return installPackArchive(db, caller, release.archive, release.repository);
  },
  remove: ({ db, caller }, input) => removePack(db, caller, input.name),
});
