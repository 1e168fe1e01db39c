/**
 * What starting a step process costs: a bare child_process spawn against the product's
 * process runner and against the step sandbox at the level this machine supports, for
 * /bin/true and for `node -e 0`.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createUidPool,
  detectSandbox,
  makeStepFolders,
  runProcess,
  runSandboxed,
} from "@switchyard/core/sandbox";
import { timeIt, type Sample } from "./measure";

const N = 40;

const bare = (argv: string[]) =>
  timeIt(
    N,
    () =>
      new Promise((r) =>
        spawn(argv[0]!, argv.slice(1), { env: { PATH: "/usr/bin:/bin" } }).once("close", r),
      ),
  );

export const benchSpawn = async (): Promise<Sample[]> => {
  const scratch = await mkdtemp(path.join(tmpdir(), "sy-bench-"));
  await chmod(scratch, 0o711); // step uids must be able to enter it
  try {
    const root = process.getuid?.() === 0;
    const uids = root ? createUidPool(64_000, 1) : undefined;
    const uid = uids?.uids[0];
    const host = await detectSandbox({
      mode: "auto",
      ownerId: "bench",
      scratchDir: scratch,
      probeUid: uid,
    });
    const folders = await makeStepFolders(
      path.join(scratch, "run"),
      uid === undefined ? undefined : { uid },
    );
    const samples: Sample[] = [];
    for (const [label, argv] of [
      ["/bin/true", ["/bin/true"]],
      ["node -e 0", [process.execPath, "-e", "0"]],
    ] as const) {
      const baseline = await bare([...argv]);
      const runner = await timeIt(N, () =>
        runProcess({ argv: [...argv], cwd: scratch, env: { PATH: "/usr/bin:/bin" } }),
      );
      const sandboxed = await timeIt(N, () =>
        runSandboxed(host, {
          argv: [...argv],
          workspace: folders.workspace,
          home: folders.home,
          tmp: folders.tmp,
          network: false,
          uid,
        }),
      );
      samples.push(
        {
          name: `${label}: process runner (p50)`,
          unit: "ms",
          baseline: baseline.p50,
          subject: runner.p50,
          note: "bare spawn",
        },
        {
          name: `${label}: sandbox ${host.level} (p50)`,
          unit: "ms",
          baseline: baseline.p50,
          subject: sandboxed.p50,
          note: "bare spawn",
        },
      );
    }
    return samples;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};
