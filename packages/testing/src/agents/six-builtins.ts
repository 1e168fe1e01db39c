/**
 * For the real-CLI tests: the script that drives the proxy's six built-ins and an escape the
 * proxy refuses, each turn checking what the previous result said, then the answer. Each CLI
 * names the proxy's tools its own way (`named("Write")` is `mcp__switchyard__Write` for
 * Claude Code) and checks its own first request.
 */

/** The calls in order: tool, what the previous result holds, arguments, whether the proxy refuses it. */
export const SIX_CALLS: [string, string, Record<string, unknown>, boolean][] = [
  ["Write", "", { path: "notes/a.txt", content: "alpha\nbeta\n" }, false],
  ["Read", "Wrote 11 bytes to notes/a.txt", { path: "notes/a.txt" }, false],
  ["Edit", "alpha\nbeta", { path: "notes/a.txt", old: "beta", new: "gamma" }, false],
  ["Bash", "1 replacement", { command: "cat notes/a.txt" }, false],
  ["Glob", "alpha\ngamma", { pattern: "**/*.txt" }, false],
  ["Grep", "notes/a.txt", { pattern: "gam+a", output_mode: "content" }, false],
  ["Read", "notes/a.txt:2:gamma", { path: "../../../etc/passwd" }, true],
];

export const SIX_FIRST_TEXT = "Writing the file first.";
export const SIX_ANSWER = "Done: notes/a.txt now says alpha and gamma.";

/** The turns: the first says SIX_FIRST_TEXT and checks `first`, each later one the previous result. */
export const sixBuiltinsTurns = (
  named: (tool: string) => string,
  first: Record<string, string | string[]>,
) => [
  ...SIX_CALLS.map(([tool, after, args], i) => ({
    label: `${i + 1}: ${tool}`,
    expect: i === 0 ? first : { lastToolResultContains: after },
    ...(i === 0 ? { text: SIX_FIRST_TEXT } : {}),
    toolCalls: [{ name: named(tool), arguments: args }],
  })),
  {
    label: "answer",
    expect: { lastToolResultContains: "outside the workspace" },
    text: SIX_ANSWER,
  },
];
