/**
 * The `Glob` built-in: lists workspace files matching a pattern, with real `**` recursion,
 * sorted and capped.
 */
import { lstat } from "node:fs/promises";
import { z } from "zod";
import { PathRefused, type Confinement } from "./confine-path";
import { GLOB_BUDGET_MS, filterByGlob } from "./glob-filter";
import { compileGlob } from "./glob-pattern";
import { toolText, type ToolResult } from "./tool-provider";
import { walkFiles } from "./walk-files";

const GLOB_RESULT_CAP = 1000;

export const globArgs = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob pattern, e.g. "**/*.ts" or "src/*.{js,json}". `**` matches any number of folders.',
    ),
  cwd: z
    .string()
    .optional()
    .describe("Folder to search from, relative to the workspace root. Default: the root."),
});

export const GLOB_DESCRIPTION = [
  "Find files in the workspace by glob pattern (e.g. **/*.ts, src/**/test_*.py, *.{json,yaml}).",
  "The pattern is matched against paths relative to cwd; results are paths relative to the workspace root, sorted,",
  `at most ${GLOB_RESULT_CAP}. Symlinked folders are not followed.`,
].join(" ");

export type GlobOptions = {
  /**
   * How long the search may take before it is stopped with an error.
   * @default GLOB_BUDGET_MS (10 s)
   */
  budgetMs?: number;
};

export const globFiles = async (
  confinement: Confinement,
  args: z.infer<typeof globArgs>,
  signal: AbortSignal,
  options: GlobOptions = {},
): Promise<ToolResult> => {
  const base = await confinement.resolve(args.cwd);
  if (!base.exists || !(await lstat(base.real)).isDirectory())
    throw new PathRefused(`${args.cwd ?? "."}: not a folder`);
  // An absolute pattern inside the folder is taken relative to it.
  const pattern = args.pattern.startsWith(`${base.real}/`)
    ? args.pattern.slice(base.real.length + 1)
    : args.pattern.replace(/^\.\//, "");
  const glob = compileGlob(pattern);
  const walk = await walkFiles(base.real, base.real, signal);
  const prefix = base.relative === "." ? "" : `${base.relative}/`;
  const kept = await filterByGlob(walk.entries, (e) => glob.test(e.relative), {
    budgetMs: options.budgetMs ?? GLOB_BUDGET_MS,
    signal,
  });
  const matches = kept.map((e) => `${prefix}${e.relative}`);
  const shown = matches.slice(0, GLOB_RESULT_CAP);
  const notes: string[] = [];
  if (matches.length > GLOB_RESULT_CAP)
    notes.push(`[${matches.length - GLOB_RESULT_CAP} more matches not shown; narrow the pattern]`);
  if (walk.truncated) notes.push("[the folder has too many entries; the search stopped early]");
  if (shown.length === 0)
    return toolText(`No files match ${args.pattern}${notes.length ? `\n${notes.join("\n")}` : ""}`);
  return toolText([...shown, ...notes].join("\n"));
};
