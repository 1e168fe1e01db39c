/**
 * Cost of starting a step process: a bare child_process spawn of /bin/true against the
 * product's process runner.
 */
import { spawn } from "node:child_process";
import { runProcess } from "@switchyard/core/sandbox";
import { timeIt, type Sample } from "./measure";

const N = 60;

export const benchSpawn = async (): Promise<Sample[]> => {
  const bare = await timeIt(N, () => new Promise((r) => spawn("/bin/true").once("close", r)));
  const runner = await timeIt(N, () => runProcess({ argv: ["/bin/true"], cwd: "/tmp", env: { PATH: "/usr/bin:/bin" } }));
  return [
    { name: "step process start (p50)", unit: "ms", baseline: bare.p50, subject: runner.p50, note: "bare spawn of /bin/true" },
  ];
};
