/**
 * `npm run bench`: measures the product against baselines in the same run and prints one
 * table of ratios. Needs the services (scripts/bench.sh starts them). Names given as
 * arguments (`npm run bench -- agent tool-call`) run only those benches.
 */
import { benchAgent } from "./bench-agent";
import { benchApi } from "./bench-api";
import { benchIngest } from "./bench-ingest";
import { benchMemory } from "./bench-memory";
import { benchProxy } from "./bench-proxy";
import { benchRunPage } from "./bench-run-page";
import { benchRuns } from "./bench-runs";
import { benchSandbox } from "./bench-sandbox";
import { benchSpawn } from "./bench-spawn";
import { benchThroughput } from "./bench-throughput";
import { benchToolCall } from "./bench-tool-call";
import { benchValidate } from "./bench-validate";
import { printTable, type Sample } from "./measure";

const BENCHES: Record<string, () => Promise<Sample[]>> = {
  validate: benchValidate,
  spawn: benchSpawn,
  sandbox: benchSandbox,
  runs: benchRuns,
  proxy: benchProxy,
  "tool-call": benchToolCall,
  agent: benchAgent,
  api: benchApi,
  "run-page": benchRunPage,
  throughput: benchThroughput,
  memory: benchMemory,
  ingest: benchIngest,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !Object.hasOwn(BENCHES, name));
if (unknown.length > 0) {
  console.error(
    `unknown bench ${unknown.join(", ")}; the benches are ${Object.keys(BENCHES).join(", ")}`,
  );
  process.exit(1);
}
const samples: Sample[] = [];
for (const [name, bench] of Object.entries(BENCHES))
  if (wanted.length === 0 || wanted.includes(name)) samples.push(...(await bench()));
printTable(samples);
process.exit(0);
