/**
 * The built `switchyard` command copied where another user can run it: tests that run it as
 * uid 65534 cannot rely on the checkout being readable by others (a clone under /root or a
 * 0700 temp folder is not). The copy is the bin and its bundle (packages/cli/dist, built by
 * packages/cli/bin/build.mjs), world-readable, under `parent`. The bundle must be current:
 * the copy's manifest lists no sources (they are not beside it), so the bin runs it as built.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

const CLI_PACKAGE = path.resolve(import.meta.dirname, "../../../cli");

/** Builds packages/cli/dist (node packages/cli/bin/build.mjs); rejects when the build fails. */
export const buildCli = () =>
  new Promise<void>((resolve, reject) => {
    const built = spawn(process.execPath, [path.join(CLI_PACKAGE, "bin/build.mjs")], {
      stdio: "ignore",
    });
    built.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`build exit ${code}`))));
  });

/** Copies bin/switchyard.mjs and dist/ into `<parent>/cli`; returns the copied bin's path. */
export const cliForOthers = (parent: string): string => {
  const dist = path.join(CLI_PACKAGE, "dist");
  const rebuild = `the switchyard CLI in ${dist} is not built or older than its sources: run \`node packages/cli/bin/build.mjs\``;
  let manifest: { started_at: number; inputs: string[] };
  try {
    manifest = JSON.parse(readFileSync(path.join(dist, "inputs.json"), "utf8")) as typeof manifest;
  } catch {
    throw new Error(rebuild);
  }
  if (
    manifest.inputs.some(
      (input) => statSync(path.resolve(dist, input)).mtimeMs > manifest.started_at,
    )
  )
    throw new Error(rebuild);
  const root = path.join(parent, "cli");
  for (const [from, to] of [
    [path.join(CLI_PACKAGE, "bin"), path.join(root, "bin")],
    [dist, path.join(root, "dist")],
  ] as const) {
    mkdirSync(to, { recursive: true, mode: 0o755 });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith(".map")) continue;
      copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
      chmodSync(path.join(to, entry.name), 0o644);
    }
  }
  writeFileSync(
    path.join(root, "dist", "inputs.json"),
    JSON.stringify({ ...manifest, inputs: [] }),
    { mode: 0o644 },
  );
  for (const dir of [parent, root]) chmodSync(dir, 0o755);
  return path.join(root, "bin", "switchyard.mjs");
};
