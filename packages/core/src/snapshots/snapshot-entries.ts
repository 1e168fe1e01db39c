/**
 * What a workspace snapshot lists (its manifest, `WorkspaceSnapshot.files`): files by content
 * hash, symbolic links as links, empty folders. A manifest is read back from storage before
 * anything is written from it, and a hostile one (a path with `..`, an absolute path, a path
 * through a link or a file, the same path twice, a bad hash) is refused whole, so nothing
 * written from it can land outside the folder it is restored into.
 */
import { z } from "zod";
import { AppError } from "../errors";

/** A regular file: its permission bits and its content by SHA-256 (hex). */
export type SnapshotFile = { path: string; mode: number; sha256: string; size: number };
/** A symbolic link, kept as the link (its target is text, never followed). */
type SnapshotLink = { path: string; link: string };
/** A folder with nothing in it (folders with entries follow from their entries' paths). */
type SnapshotDir = { path: string; dir: true };
export type SnapshotEntry = SnapshotFile | SnapshotLink | SnapshotDir;

/** What a snapshot may hold at most. */
export type SnapshotLimits = {
  /** The largest file, in bytes. */
  maxFileBytes: number;
  /** All files together, in bytes. */
  maxTotalBytes: number;
  /**
   * Entries (files, links, empty folders) at most.
   * @default 100_000
   */
  maxEntries?: number;
};

export const DEFAULT_MAX_ENTRIES = 100_000;
/** Linux's PATH_MAX and NAME_MAX. */
const MAX_PATH = 4096;
const MAX_NAME_BYTES = 255;

const pathText = z.string().min(1).max(MAX_PATH);
const entrySchema = z.union([
  z
    .object({
      path: pathText,
      mode: z.number().int().min(0).max(0o7777),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().min(0),
    })
    .strict(),
  z.object({ path: pathText, link: z.string().min(1).max(MAX_PATH) }).strict(),
  z.object({ path: pathText, dir: z.literal(true) }).strict(),
]);

/** Why `relative` is not a plain path inside a folder, or undefined when it is. */
const pathProblem = (relative: string): string | undefined => {
  if (relative.includes("\0")) return "has a NUL character";
  if (relative.startsWith("/")) return "is absolute";
  for (const name of relative.split("/")) {
    if (name === "") return "has an empty segment";
    if (name === "." || name === "..") return `has a "${name}" segment`;
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) return "has a name longer than 255 bytes";
  }
  return undefined;
};

const invalid = (message: string) =>
  new AppError("SYSTEM.SNAPSHOT_INVALID", `the workspace snapshot cannot be restored: ${message}`);

/**
 * A stored manifest, checked: every entry well formed, every path plain and inside the
 * folder, none twice, none below a file or a link. Throws SYSTEM.SNAPSHOT_INVALID naming
 * the first problem.
 */
export const parseSnapshotEntries = (
  value: unknown,
  maxEntries = DEFAULT_MAX_ENTRIES,
): SnapshotEntry[] => {
  if (!Array.isArray(value)) throw invalid("its file list is not a list");
  if (value.length > maxEntries) throw invalid(`it lists more than ${maxEntries} entries`);
  const entries: SnapshotEntry[] = [];
  const seen = new Set<string>();
  const leaves = new Set<string>();
  for (const [index, item] of value.entries()) {
    const parsed = entrySchema.safeParse(item);
    if (!parsed.success) throw invalid(`entry ${index} is malformed`);
    const entry: SnapshotEntry = parsed.data;
    const problem = pathProblem(entry.path);
    if (problem) throw invalid(`entry ${index}'s path ${problem}`);
    if (seen.has(entry.path)) throw invalid(`"${entry.path}" is listed twice`);
    seen.add(entry.path);
    if (!("dir" in entry)) leaves.add(entry.path);
    entries.push(entry);
  }
  for (const entry of entries) {
    const names = entry.path.split("/");
    for (let i = 1; i < names.length; i++) {
      const above = names.slice(0, i).join("/");
      if (leaves.has(above)) throw invalid(`"${entry.path}" lies below "${above}", not a folder`);
    }
  }
  return entries;
};
