/**
 * Prints what the sandbox costs: median start-to-exit time of `/bin/true` and `node -e 0`
 * at each level against a plain spawn, as ratios. Run as root for `strict`:
 * node --import tsx packages/core/src/sandbox/testing/bench.ts
 */
import { runProcess } from "../run-process";
import { runSandboxed } from "../run-sandboxed";
import type { SandboxLevel } from "../sandbox-types";
import { detectForTest, isRoot, makeStepDirs, removeStepDirs, spec } from "./kit";

const ROUNDS = 30;
const UID = 61900;

const median = async (f: () => Promise<unknown>) => {
  for (let i = 0; i < 3; i++) await f();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await f();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[ROUNDS >> 1] ?? Number.NaN;
};

const commands = { true: ["/bin/true"], node: [process.execPath, "-e", "0"] };
const levels: SandboxLevel[] = isRoot ? ["strict", "namespaces", "none"] : ["namespaces", "none"];
const plainDirs = await makeStepDirs();
for (const [name, argv] of Object.entries(commands)) {
  const plain = await median(() => runProcess({ argv, cwd: plainDirs.workspace, env: {} }));
  console.log(`${name}: plain spawn ${plain.toFixed(1)} ms`);
  for (const level of levels) {
    const dirs = await makeStepDirs();
    const host = await detectForTest(UID, level);
    const t = await median(() => runSandboxed(host, spec(dirs, UID, argv)));
    console.log(
      `${name}: ${level} ${t.toFixed(1)} ms (x${(t / plain).toFixed(1)}, +${(t - plain).toFixed(1)} ms)`,
    );
    await removeStepDirs(dirs);
  }
}
await removeStepDirs(plainDirs);
