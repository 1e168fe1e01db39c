/**
 * The built switchyard CLI, whose `mcp-serve` is each agent step's proxy: found in
 * packages/cli/dist (which packages/cli/bin/build.mjs makes), and staged as a copy where a
 * step uid can reach it.
 */
import {
  chmod,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { AppError } from "../../errors";

export type BuiltCli = { dir: string; entry: string; stale: boolean };

/**
 * The build's launcher, which packages/cli/bin/build.mjs writes next to the bundle:
 * `node <dir>/switchyard.mjs mcp-serve …` runs the bundle's `main`. A staged copy gets one
 * of its own, for the entry that was found, whatever build came meanwhile.
 */
export const LAUNCHER = "switchyard.mjs";
const launcher = (entry: string) =>
  `const { main } = await import(${JSON.stringify(`./${entry}`)});\nprocess.exitCode = await main(process.argv.slice(2));\n`;
const REBUILD = "run `node packages/cli/bin/build.mjs`";

/**
 * The built CLI in `dir` (packages/cli/dist, which packages/cli/bin/build.mjs makes), bound
 * read-only into the sandbox as it is, or from a staged copy (stageBuiltCli); `stale` when
 * a source it was built from changed since.
 */
export const findBuiltCli = async (dir: string): Promise<BuiltCli> => {
  let manifest: { entry?: unknown; started_at?: unknown; inputs?: unknown };
  try {
    manifest = JSON.parse(await readFile(path.join(dir, "inputs.json"), "utf8")) as typeof manifest;
  } catch {
    throw new AppError(
      "EXECUTION.MCP_PROXY.UNAVAILABLE",
      `the switchyard CLI is not built in ${dir}: ${REBUILD}`,
    );
  }
  if (
    typeof manifest.entry !== "string" ||
    typeof manifest.started_at !== "number" ||
    !Array.isArray(manifest.inputs)
  )
    throw new AppError(
      "EXECUTION.MCP_PROXY.UNAVAILABLE",
      `${dir}inputs.json is not a CLI build manifest: ${REBUILD}`,
    );
  if (!(await stat(path.join(dir, LAUNCHER)).catch(() => undefined))?.isFile())
    throw new AppError(
      "EXECUTION.MCP_PROXY.UNAVAILABLE",
      `the switchyard CLI in ${dir} has no ${LAUNCHER} (an older build): ${REBUILD}`,
    );
  let stale = false;
  for (const input of manifest.inputs as unknown[]) {
    if (typeof input !== "string") continue;
    const info = await stat(path.resolve(dir, input)).catch(() => undefined);
    if (info && info.mtimeMs > manifest.started_at) stale = true;
  }
  return { dir, entry: manifest.entry, stale };
};

/** Stagings under way in this process, by target: steps that start together share one. */
const staging = new Map<string, Promise<void>>();

/** Copies the build into `target`: written aside under a name of its own, then renamed into place. */
const copyBuild = async (cli: BuiltCli, target: string) => {
  const aside = `${target}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await mkdir(aside, { recursive: true, mode: 0o755 });
  try {
    // Files only: a build under way keeps its output in a folder of its own there.
    for (const entry of await readdir(cli.dir, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith(".map") || entry.name === LAUNCHER) continue;
      await copyFile(path.join(cli.dir, entry.name), path.join(aside, entry.name));
      await chmod(path.join(aside, entry.name), 0o644);
    }
    await writeFile(path.join(aside, LAUNCHER), launcher(cli.entry), { mode: 0o644 });
    await rename(aside, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another process staged the same build first.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
};

/**
 * A copy of the built CLI in `parent` (a folder the step uid can enter), since bubblewrap
 * resolves a bind's source as the step uid, which may not enter the checkout (a clone
 * under /root or a 0700 temp folder). One copy per build, made once: steps of this process
 * that stage it together wait for one copy, and other processes' copies are written aside
 * and renamed into place, so no step ever sees half a copy.
 */
export const stageBuiltCli = async (cli: BuiltCli, parent: string): Promise<BuiltCli> => {
  const manifest = await stat(path.join(cli.dir, "inputs.json"));
  const target = path.join(parent, `.cli-${Math.floor(manifest.mtimeMs)}`);
  const staged = { ...cli, dir: `${target}/` };
  if (await stat(path.join(target, LAUNCHER)).catch(() => undefined)) return staged;
  let copy = staging.get(target);
  if (!copy) {
    copy = copyBuild(cli, target).finally(() => staging.delete(target));
    staging.set(target, copy);
  }
  await copy;
  return staged;
};
