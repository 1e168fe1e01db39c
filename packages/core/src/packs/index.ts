/**
 * The public surface of `@switchyard/core/packs`: AWF workflow packs read from their
 * archives and checked as AWF checks them, and the release download's checks.
 */
export { PACK_ARCHIVE_LIMITS } from "./pack-archive";
export type { PackManifest } from "./pack-manifest";
export { AWF_LANGUAGE_VERSION } from "./awf-version";
export { readPack } from "./read-pack";
export { releaseSpec, verifyChecksum } from "./pack-release";
