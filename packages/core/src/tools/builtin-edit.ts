/**
 * The `Edit` built-in: a literal find-and-replace in one workspace file. The old text must
 * occur, and occur once unless `replace_all` is set, so a model never edits the wrong spot.
 */
import { z } from "zod";
import type { Confinement } from "./confine-path";
import { READ_BYTE_CAP } from "./builtin-read";
import { writeAtomically } from "./builtin-write";
import { toolError, toolText, type ToolResult } from "./tool-provider";

export const editArgs = z.object({
  path: z.string().describe("File path, relative to the workspace root (or absolute inside it)."),
  old: z.string().min(1).describe("The exact text to replace (literal, whitespace included)."),
  new: z.string().describe("The replacement text."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence. Default false: `old` must occur exactly once."),
});

export const EDIT_DESCRIPTION = [
  "Replace literal text in a workspace file. `old` must match the file exactly (including indentation and line breaks)",
  "and, unless replace_all is true, occur exactly once: include enough surrounding lines to make it unique.",
  "Read the file first. Returns an error, and changes nothing, when `old` is missing or ambiguous.",
].join(" ");

const countOccurrences = (haystack: string, needle: string): number => {
  let count = 0;
  for (
    let at = haystack.indexOf(needle);
    at !== -1;
    at = haystack.indexOf(needle, at + needle.length)
  )
    count++;
  return count;
};

export const editFile = async (
  confinement: Confinement,
  args: z.infer<typeof editArgs>,
): Promise<ToolResult> => {
  const { handle, stat, resolved } = await confinement.openFile(args.path);
  let text: string;
  try {
    if (stat.size > READ_BYTE_CAP)
      return toolError(
        `${resolved.relative}: larger than ${READ_BYTE_CAP} bytes; use Write or Bash`,
      );
    text = (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
  const count = countOccurrences(text, args.old);
  if (count === 0)
    return toolError(
      `${resolved.relative}: the text in "old" was not found; nothing changed. Read the file and copy the text exactly.`,
    );
  if (count > 1 && !args.replace_all) {
    return toolError(
      `${resolved.relative}: "old" occurs ${count} times; add surrounding lines to make it unique, or set replace_all. Nothing changed.`,
    );
  }
  const updated = args.replace_all
    ? text.split(args.old).join(args.new)
    : text.replace(args.old, () => args.new);
  await writeAtomically(confinement, args.path, updated);
  return toolText(
    `Edited ${resolved.relative}: ${args.replace_all ? count : 1} replacement${count > 1 && args.replace_all ? "s" : ""}`,
  );
};
