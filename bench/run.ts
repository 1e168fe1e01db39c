/**
 * `npm run bench`: measures the product against baselines in the same run and prints one
 * table of ratios. Needs the services (scripts/bench.sh starts them).
 */
import { benchProxy } from "./bench-proxy";
import { benchRuns } from "./bench-runs";
import { benchSpawn } from "./bench-spawn";
import { benchValidate } from "./bench-validate";
import { printTable, type Sample } from "./measure";

const samples: Sample[] = [];
for (const bench of [benchValidate, benchSpawn, benchRuns, benchProxy]) samples.push(...(await bench()));
printTable(samples);
process.exit(0);
