/**
 * The `Write` built-in: replaces or creates a file inside the workspace atomically (a
 * temporary sibling renamed over the target), creating parent folders as needed. Shared
 * with `Edit`, which writes its result the same way.
 */
import { randomBytes } from "node:crypto";
import { lstat, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { checkRegularFile, fdPath, type Confinement } from "./confine-path";
import { toolText, type ToolResult } from "./tool-provider";

export const writeArgs = z.object({
  path: z.string().describe("File path, relative to the workspace root (or absolute inside it)."),
  content: z.string().describe("The complete new content of the file."),
});

export const WRITE_DESCRIPTION = [
  "Create a file or replace its whole content in the workspace. Parent folders are created.",
  "The write is atomic: readers see the old or the new content, never a mix.",
  "For a small change to an existing file prefer Edit. Paths outside the workspace are refused.",
].join(" ");

/** Writes `content` at a resolved path atomically; the target must be a plain file if it exists. */
export const writeAtomically = async (
  confinement: Confinement,
  input: string,
  content: string,
): Promise<string> => {
  const resolved = await confinement.resolve(input);
  let mode = 0o644;
  if (resolved.exists) {
    const current = await lstat(resolved.real);
    checkRegularFile(input, current);
    mode = current.mode & 0o777;
  }
  // The folder is made and held by descriptor, and every name below is taken through it: a
  // folder swapped for a symlink after the checks above cannot lead the write outside.
  const folder = await confinement.openFolder(input, path.dirname(resolved.real));
  try {
    const name = path.basename(resolved.real);
    const temp = `${fdPath(folder)}/.${name}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, content, { mode, flag: "wx" });
      await rename(temp, `${fdPath(folder)}/${name}`);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  } finally {
    await folder.close();
  }
  return resolved.relative;
};

export const writeFileTool = async (
  confinement: Confinement,
  args: z.infer<typeof writeArgs>,
): Promise<ToolResult> => {
  const relative = await writeAtomically(confinement, args.path, args.content);
  return toolText(`Wrote ${Buffer.byteLength(args.content)} bytes to ${relative}`);
};
