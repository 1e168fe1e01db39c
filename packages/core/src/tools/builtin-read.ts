/**
 * The `Read` built-in: returns a text file's lines, by line window, from inside the
 * workspace. Large files are read up to 5 MiB with a note, so one call cannot flood memory.
 */
import { z } from "zod";
import type { Confinement } from "./confine-path";
import { toolError, toolText, type ToolResult } from "./tool-provider";

export const READ_BYTE_CAP = 5 * 1024 * 1024;
const DEFAULT_LINE_LIMIT = 2000;

export const readArgs = z.object({
  path: z.string().describe("File path, relative to the workspace root (or absolute inside it)."),
  offset: z.number().int().min(1).optional().describe("First line to return, 1-based. Default 1."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Number of lines to return. Default ${DEFAULT_LINE_LIMIT}.`),
});

export const READ_DESCRIPTION = [
  "Read a text file from the workspace and return its lines exactly as stored (no line-number prefixes), so they can be copied into Edit.",
  `Use offset (1-based first line) and limit (line count, default ${DEFAULT_LINE_LIMIT}) to page through long files; a note at the end says when more lines remain.`,
  "Paths are relative to the workspace root. Binary files, folders, devices, hard-linked files and paths outside the workspace are refused.",
].join(" ");

export const readFile = async (
  confinement: Confinement,
  args: z.infer<typeof readArgs>,
): Promise<ToolResult> => {
  const { handle, stat, resolved } = await confinement.openFile(args.path);
  try {
    const size = Math.min(stat.size, READ_BYTE_CAP);
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    if (bytes.subarray(0, 8192).includes(0))
      return toolError(`${resolved.relative}: binary file, not shown`);
    const text = bytes.toString("utf8");
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const first = (args.offset ?? 1) - 1;
    const limit = args.limit ?? DEFAULT_LINE_LIMIT;
    const window = lines.slice(first, first + limit);
    const notes: string[] = [];
    if (first >= lines.length && lines.length > 0) {
      return toolError(
        `${resolved.relative}: offset ${first + 1} is past the end (${lines.length} lines)`,
      );
    }
    if (first + limit < lines.length) {
      notes.push(
        `[${lines.length - first - limit} more lines; continue with offset ${first + limit + 1}]`,
      );
    }
    if (stat.size > READ_BYTE_CAP) {
      notes.push(`[file is ${stat.size} bytes; only the first ${READ_BYTE_CAP} bytes were read]`);
    }
    const body = window.join("\n");
    return toolText(notes.length > 0 ? `${body}\n${notes.join("\n")}` : body);
  } finally {
    await handle.close();
  }
};
