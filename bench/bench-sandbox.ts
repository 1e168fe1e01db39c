/**
 * What the step sandbox costs to start, against a bare `setpriv` + `bwrap` command line with
 * the same uid switch, namespaces, binds and environment (the product's own options, minus
 * its extras: the launcher shell, the descriptors it hands bwrap, the exit check); and what
 * a step costs through a run's resident launcher (one sandbox per run, a fork and exec per
 * step), against a sandbox per step and against that bare command line. The resident
 * launcher's own start (once per run) is a row of its own.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  buildLaunch,
  createUidPool,
  detectSandbox,
  makeStepFolders,
  openStepLauncher,
  runSandboxed,
} from "@switchyard/core/sandbox";
import type { SandboxHost, SandboxSpec } from "@switchyard/core/sandbox";
import { timeInTurns, type Sample } from "./measure";

const N = Number(process.env.BENCH_SANDBOX_N ?? 40);

/** The product's setpriv and bwrap options as one plain command line. */
const bareCommand = async (
  host: SandboxHost,
  spec: SandboxSpec,
  scratch: string,
): Promise<string[]> => {
  const launch = buildLaunch(host, spec, "bench", { uid: 0, gid: 0 });
  if (!launch.files) throw new Error("the bare baseline needs a confined level");
  const setpriv = launch.args.slice(0, launch.args.indexOf("--"));
  const passwd = path.join(scratch, "passwd");
  const group = path.join(scratch, "group");
  await writeFile(passwd, launch.files.passwd, { mode: 0o644 });
  await writeFile(group, launch.files.group, { mode: 0o644 });
  const given = launch.files.args.split("\0").slice(0, -1);
  const options: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const a = given[i]!;
    if (a === "--ro-bind-data") {
      const target = given[i + 2]!;
      options.push("--ro-bind", target === "/etc/passwd" ? passwd : group, target);
      i += 2;
    } else if (a === "--json-status-fd") i += 1;
    else options.push(a);
  }
  return [launch.file, ...setpriv, "--", host.tools.bwrap, ...options, "--", ...spec.argv];
};

const runBare = (argv: string[]) =>
  new Promise((resolve) =>
    spawn(argv[0]!, argv.slice(1), { env: { PATH: "/usr/bin:/bin" }, detached: true }).once(
      "close",
      resolve,
    ),
  );

export const benchSandbox = async (): Promise<Sample[]> => {
  const scratch = await mkdtemp(path.join(tmpdir(), "sy-bench-"));
  await chmod(scratch, 0o711);
  try {
    const root = process.getuid?.() === 0;
    const uid = root ? createUidPool(64_010, 1).uids[0] : undefined;
    const host = await detectSandbox({
      mode: "auto",
      ownerId: "bench",
      scratchDir: scratch,
      probeUid: uid,
    });
    if (host.level === "none")
      return [
        {
          name: "sandbox start: product vs bare setpriv + bwrap",
          unit: "ms",
          baseline: 0,
          subject: 0,
          skipped: "no bwrap here",
        },
      ];
    const folders = await makeStepFolders(
      path.join(scratch, "run"),
      uid === undefined ? undefined : { uid },
    );
    const spec = (argv: string[]): SandboxSpec => ({
      argv,
      workspace: folders.workspace,
      home: folders.home,
      tmp: folders.tmp,
      network: false,
      uid,
    });
    const samples: Sample[] = [];
    const launcher = openStepLauncher(host, {
      workspace: folders.workspace,
      home: folders.home,
      tmp: folders.tmp,
      network: false,
      uid,
    });
    try {
      const started = performance.now();
      await launcher.run({ argv: ["/bin/true"] });
      const launcherStart = performance.now() - started;
      for (const [label, argv] of [
        ["/bin/true", ["/bin/true"]],
        ["sh -c 'echo'", ["/bin/sh", "-c", "echo hi"]],
      ] as const) {
        const bare = await bareCommand(host, spec([...argv]), scratch);
        const t = await timeInTurns(N, {
          bare: () => runBare(bare),
          perStep: () => runSandboxed(host, spec([...argv])),
          perRun: () => launcher.run({ argv: [...argv] }),
        });
        samples.push(
          {
            name: `${label}: sandbox ${host.level}, one per step (p50)`,
            unit: "ms",
            baseline: t.bare.p50,
            subject: t.perStep.p50,
            note: "bare setpriv + bwrap",
          },
          {
            name: `${label}: per-run launcher, per step (p50)`,
            unit: "ms",
            baseline: t.bare.p50,
            subject: t.perRun.p50,
            note: "bare setpriv + bwrap",
          },
          {
            name: `${label}: per-run launcher, per step (p50)`,
            unit: "ms",
            baseline: t.perStep.p50,
            subject: t.perRun.p50,
            note: "a sandbox per step",
          },
        );
        if (label === "/bin/true")
          samples.push({
            name: "per-run launcher: its start, once per run",
            unit: "ms",
            baseline: t.perStep.p50,
            subject: launcherStart,
            note: "a sandbox per step",
          });
      }
    } finally {
      await launcher.close();
    }
    return samples;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};
