/**
 * The public surface of `@switchyard/core/packs`: AWF workflow packs read from their
 * archives, and the checks on a pack's name and manifest.
 */
export { readPackArchive, PACK_ARCHIVE_LIMITS } from "./pack-archive";
export type { PackArchiveLimits } from "./pack-archive";
export {
  readPackManifest,
  packNameProblem,
  MANIFEST_FILE,
  RESERVED_PACK_NAMES,
} from "./pack-manifest";
export type { PackManifest } from "./pack-manifest";
export { readPack } from "./read-pack";
export type { ReadPack, PackWorkflow } from "./read-pack";
export { releaseSpec, verifyChecksum } from "./pack-release";
