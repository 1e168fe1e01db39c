// The compatibility table of `npm run test:agents`: one row per agent CLI with the version
// its stamp in the agents folder names, one column per capability, each cell from the
// results of the tests that cover it (Vitest's JSON report). The two suites run every case
// for every CLI, in a `describe.each` whose title names the CLI (`%s`). A capability is
// covered by the tests whose titles match it, found in the test files themselves, so a test
// of a file that did not load counts as not run; a case a CLI's row leaves out (a known
// limit) is not in the report for that CLI, and a capability no test of a CLI covers shows
// "—". Prints the table and writes it between the markers of its kind in the doc.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values, positionals: agents } = parseArgs({
  allowPositionals: true,
  options: {
    kind: { type: "string" },
    report: { type: "string" },
    "agents-dir": { type: "string" },
    "install-status": { type: "string", default: "0" },
    out: { type: "string" },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const FILES = {
  core: "packages/core/src/providers/cli-providers.int.test.ts",
  worker: "test/agent-cli.int.test.ts",
};

// What each capability means, and the tests (file, title) that show it.
const CAPABILITIES = [
  [
    "tools offered on the first request",
    [
      ["core", /drives the six built-ins/],
      ["worker", /in the step sandbox/],
    ],
  ],
  [
    "built-ins through the proxy",
    [
      ["core", /six built-ins through the proxy/],
      ["worker", /in the step sandbox/],
    ],
  ],
  [
    "escape refused",
    [
      ["core", /refused escape/],
      ["worker", /in the step sandbox/],
    ],
  ],
  ["usage parsed", [["core", /returns usage/]]],
  [
    "cancel leaves nothing",
    [
      ["core", /step is cancelled/],
      ["worker", /cancelled .*leaves no process/],
    ],
  ],
  ["no result fails cleanly", [["core", /AGENT_NO_RESULT/]]],
  ["tool activated by tool_search", [["core", /tool_search/]]],
  ["under the worker", [["worker", /./]]],
];

const sourceOf = (file) => {
  const full = path.join(ROOT, file);
  return existsSync(full) ? readFileSync(full, "utf8") : "";
};
const QUOTED = String.raw`(["'\`])((?:\\.|(?!\1)[\s\S])*?)\1`;
/** The test titles of a file, as written: `it(...)`, `it.skipIf(...)(...)`; a `${...}` in a template stands for anything. */
const titlesIn = (file) =>
  [
    ...sourceOf(file).matchAll(
      new RegExp(String.raw`\bit(?:\.\w+(?:\([^()]*\))?)?\(\s*` + QUOTED, "g"),
    ),
  ].map((m) => m[2]);
/** The title of the file's `describe.each` for `agent` (its `%s`). */
const describeTitle = (file, agent) => {
  const m = new RegExp(String.raw`describe\.each\([\s\S]*?\)\(\s*` + QUOTED).exec(sourceOf(file));
  return m?.[2].replace("%s", agent);
};
const titleMatcher = (title) =>
  new RegExp(
    `^${title
      .split(/\$\{[^}]*\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );

const report = existsSync(values.report)
  ? JSON.parse(readFileSync(values.report, "utf8"))
  : { testResults: [] };
/** The results of `file`'s tests for `agent`, or undefined when the file has none (it did not load or run). */
const resultsOf = (file, agent) => {
  const suite = report.testResults.find((s) => path.relative(ROOT, s.name) === file);
  if (!suite || suite.assertionResults.length === 0) return undefined;
  const scope = describeTitle(file, agent);
  return suite.assertionResults.filter((a) => a.ancestorTitles.includes(scope));
};
const STATUS = { passed: "pass", failed: "fail" };

const cell = (agent, matchers) => {
  const results = matchers.flatMap(([where, re]) => {
    const file = FILES[where];
    const ran = resultsOf(file, agent);
    return titlesIn(file)
      .filter((t) => re.test(t))
      .flatMap((t) => {
        if (!ran || ran.length === 0) return ["not run"];
        const test = ran.find((a) => titleMatcher(t).test(a.title));
        // Not in the report for this CLI: a case its row leaves out.
        return test ? [STATUS[test.status] ?? "skipped"] : [];
      });
  });
  if (results.length === 0) return "—";
  if (results.some((r) => r === "fail" || r === "not run"))
    return results.includes("fail") ? "fail" : "not run";
  return results.every((r) => r === "pass") ? "pass" : "skipped";
};

const versionOf = (agent) => {
  try {
    return JSON.parse(
      readFileSync(path.join(values["agents-dir"], agent, "switchyard-agent.json"), "utf8"),
    ).version;
  } catch {
    return "not installed";
  }
};

const date = new Date().toISOString().slice(0, 10);
const head = ["CLI", "version", ...CAPABILITIES.map(([name]) => name)];
const rows = agents.map((agent) => [
  agent,
  versionOf(agent),
  ...CAPABILITIES.map(([, m]) => cell(agent, m)),
]);
const line = (cells) => `| ${cells.join(" | ")} |`;
const title =
  values.kind === "latest"
    ? "Latest releases (`npm run test:agents -- --latest`)"
    : "Pinned versions (`npm run test:agents`)";
const installNote =
  values["install-status"] === "0"
    ? ""
    : ` The install step failed (exit ${values["install-status"]}): a CLI it did not reach keeps the version shown, or is not installed.`;
const table = [
  `### ${title}`,
  "",
  `Run on ${date} (UTC), agents folder \`${values["agents-dir"].replace(process.env.HOME ?? "\0", "~")}\`.${installNote}`,
  "",
  line(head),
  line(head.map(() => "---")),
  ...rows.map(line),
].join("\n");
console.log(`\n${table}\n`);

const doc = path.join(ROOT, values.out);
const start = `<!-- test:agents ${values.kind} start -->`;
const end = `<!-- test:agents ${values.kind} end -->`;
const text = readFileSync(doc, "utf8");
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`${values.out} has no ${start} … ${end} section`);
writeFileSync(doc, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
console.log(`written to ${values.out}`);
