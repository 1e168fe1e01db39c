/**
 * `npm run bench`: measures the product against baselines in the same run and prints one
 * table of ratios. Needs the services (scripts/bench.sh starts them). Names given as
 * arguments (`npm run bench -- agent tool-call`) run only those benches; `--quick` runs the
 * short subset with fewer iterations. A run of every bench (or of the quick subset) also
 * writes its table, with the machine it ran on, into docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { benchAgent } from "./bench-agent";
import { benchAgentPaths } from "./bench-agent-paths";
import { benchApi } from "./bench-api";
import { benchHosts } from "./bench-hosts";
import { benchConnectorCall } from "./bench-connector-call";
import { benchBudget } from "./bench-budget";
import { benchIngest } from "./bench-ingest";
import { benchMemory } from "./bench-memory";
import { benchProxy } from "./bench-proxy";
import { benchRunPage } from "./bench-run-page";
import { benchRuns } from "./bench-runs";
import { benchSandbox } from "./bench-sandbox";
import { benchSnapshot } from "./bench-snapshot";
import { benchSpawn } from "./bench-spawn";
import { benchThroughput } from "./bench-throughput";
import { benchToolCall } from "./bench-tool-call";
import { benchValidate } from "./bench-validate";
import { benchWaits } from "./bench-waits";
import { printTable, tableLines, type Sample } from "./measure";

const BENCHES: Record<string, () => Promise<Sample[]>> = {
  validate: benchValidate,
  spawn: benchSpawn,
  sandbox: benchSandbox,
  runs: benchRuns,
  proxy: benchProxy,
  "tool-call": benchToolCall,
  ingest: benchIngest,
  throughput: benchThroughput,
  memory: benchMemory,
  api: benchApi,
  "run-page": benchRunPage,
  agent: benchAgent,
  snapshot: benchSnapshot,
  hosts: benchHosts,
  "connector-call": benchConnectorCall,
  "agent-paths": benchAgentPaths,
  waits: benchWaits,
  budget: benchBudget,
};
/** What `--quick` runs: the benches that need no agent CLI, no million-row seed and no browser. */
const QUICK = [
  "validate",
  "spawn",
  "sandbox",
  "runs",
  "proxy",
  "tool-call",
  "ingest",
  "throughput",
  "memory",
  "snapshot",
  "connector-call",
  "agent-paths",
  "waits",
  "budget",
];

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const write = !args.includes("--no-write");
const wanted = args.filter((a) => !a.startsWith("--"));
const unknown = wanted.filter((name) => !Object.hasOwn(BENCHES, name));
if (unknown.length > 0) {
  console.error(
    `unknown bench ${unknown.join(", ")}; the benches are ${Object.keys(BENCHES).join(", ")} (and --quick, --no-write)`,
  );
  process.exit(1);
}
if (quick) process.env.SWITCHYARD_BENCH_QUICK = "1";
const chosen = wanted.length > 0 ? wanted : quick ? QUICK : Object.keys(BENCHES);

const machine = () => {
  const cpu = cpus();
  let os: string;
  try {
    os =
      /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ??
      process.platform;
  } catch {
    os = process.platform;
  }
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os}, Node ${process.versions.node}`;
};

const started = new Date();
const loadBefore = loadavg()[0]!;
const samples: Sample[] = [];
for (const name of chosen) {
  const t0 = performance.now();
  try {
    samples.push(...(await BENCHES[name]!()));
  } catch (error) {
    // One bench that cannot run does not lose the others' rows.
    const reason = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    samples.push({
      name: `${name} bench`,
      unit: "",
      baseline: 0,
      subject: 0,
      skipped: `failed: ${reason.slice(0, 200)}`,
    });
  }
  console.error(`[bench] ${name}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
printTable(samples);

if (write && wanted.length === 0) {
  const file = new URL("../docs/benchmarks.md", import.meta.url);
  const start = "<!-- bench:table:start -->";
  const end = "<!-- bench:table:end -->";
  const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);
  const block = [
    start,
    `Last \`npm run bench${quick ? " -- --quick" : ""}\`: ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${minutes} minutes.`,
    `Machine: ${machine()}; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
    "",
    ...tableLines(samples),
    end,
  ].join("\n");
  const text = readFileSync(file, "utf8");
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  writeFileSync(
    file,
    a >= 0 && b > a
      ? `${text.slice(0, a)}${block}${text.slice(b + end.length)}`
      : `${text.trimEnd()}\n\n## Latest run\n\n${block}\n`,
  );
  console.error(`[bench] table written to docs/benchmarks.md`);
}
process.exit(0);
