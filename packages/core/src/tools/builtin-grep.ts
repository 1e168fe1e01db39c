/**
 * The `Grep` built-in: searches workspace files with a JavaScript regular expression.
 * Matching runs in a worker with a time budget (see grep-worker.ts); output is capped,
 * binary and hard-linked files are skipped, symlinked folders are not followed.
 */
import { lstat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { checkRegularFile, PathRefused, type Confinement } from "./confine-path";
import { patternTimeout, SLOW_REGEXP_HINT } from "../patterns/pattern-errors";
import { filterByGlob } from "./glob-filter";
import { globMatcher } from "./glob-pattern";
import { runGrepJob } from "./grep-worker";
import { toolError, toolText, type ToolResult } from "./tool-provider";
import { walkFiles } from "./walk-files";

const GREP_LINE_CAP = 500;
const GREP_BUDGET_MS = 10_000;

export const grepArgs = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression, matched against each line."),
  path: z
    .string()
    .optional()
    .describe("File or folder to search, relative to the workspace root. Default: the root."),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" (base name) or "src/**/*.py".'),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      '"content": matching lines as path:line:text; "files_with_matches" (default): file paths; "count": path:count.',
    ),
  case_insensitive: z.boolean().optional().describe("Ignore case. Default false."),
});

export const GREP_DESCRIPTION = [
  "Search file contents in the workspace with a regular expression (JavaScript syntax, one line at a time).",
  "output_mode files_with_matches (default) lists files, content shows path:line:text, count shows matches per file.",
  `Filter files with glob. Binary files are skipped; at most ${GREP_LINE_CAP} lines are returned;`,
  `a search that takes longer than ${GREP_BUDGET_MS / 1000} s is stopped (simplify the pattern).`,
].join(" ");

export type GrepOptions = {
  /**
   * How long the search may take before it is stopped with an error.
   * @default GREP_BUDGET_MS (10 s)
   */
  budgetMs?: number;
};

export const grepFiles = async (
  confinement: Confinement,
  args: z.infer<typeof grepArgs>,
  signal: AbortSignal,
  options: GrepOptions = {},
): Promise<ToolResult> => {
  try {
    new RegExp(args.pattern);
  } catch (error) {
    return toolError(`Invalid regular expression: ${(error as Error).message}`);
  }
  const budgetMs = options.budgetMs ?? GREP_BUDGET_MS;
  const target = await confinement.resolve(args.path);
  if (!target.exists) throw new PathRefused(`${args.path ?? "."}: no such file or folder`);
  const st = await lstat(target.real);
  const toRoot = (full: string) => path.relative(confinement.root, full);
  let files: { full: string; relative: string }[];
  let walkTruncated = false;
  if (st.isDirectory()) {
    const walk = await walkFiles(target.real, target.real, signal);
    walkTruncated = walk.truncated;
    const matches = args.glob ? globMatcher(args.glob) : () => true;
    const kept = await filterByGlob(walk.entries, (e) => e.dirent.isFile() && matches(e.relative), {
      budgetMs,
      signal,
    });
    files = kept.map((e) => ({ full: e.full, relative: toRoot(e.full) }));
  } else if (st.isFile()) {
    // Named on its own, a hard-linked file is refused as Read refuses it, not skipped unseen.
    checkRegularFile(args.path ?? ".", st);
    files = [{ full: target.real, relative: target.relative }];
  } else {
    throw new PathRefused(`${args.path}: not a regular file or folder`);
  }
  const mode = args.output_mode ?? "files_with_matches";
  const outcome = await runGrepJob(
    {
      root: confinement.root,
      pattern: args.pattern,
      flags: args.case_insensitive ? "i" : "",
      files,
      mode,
      maxLines: GREP_LINE_CAP,
      maxLineLength: 500,
      maxFileBytes: 5 * 1024 * 1024,
    },
    budgetMs,
    signal,
  );
  switch (outcome.kind) {
    case "timeout": {
      const error = patternTimeout(
        budgetMs,
        `the regular expression is too slow on this input (${SLOW_REGEXP_HINT}). Simplify the pattern or narrow path/glob.`,
      );
      return toolError(`Grep stopped: ${error.code}: ${error.message}`);
    }
    case "failed":
      return toolError(`Grep failed: ${outcome.message}`);
    case "done": {
      const found = outcome.value;
      const notes: string[] = [];
      if (found.truncated)
        notes.push(`[output capped at ${GREP_LINE_CAP} lines; narrow the search]`);
      if (walkTruncated) notes.push("[the folder has too many entries; the search stopped early]");
      if (found.skippedBinary > 0) notes.push(`[${found.skippedBinary} binary files skipped]`);
      if (found.lines.length === 0) return toolText(["No matches", ...notes].join("\n"));
      return toolText([...found.lines, ...notes].join("\n"));
    }
  }
};
