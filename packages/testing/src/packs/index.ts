/** Workflow pack archives for tests, written entry by entry. */
export { tarGz, goodPack, nextPackVersion, MANIFEST, SPECIFY } from "./pack-archives";
export type { TarEntry } from "./pack-archives";
