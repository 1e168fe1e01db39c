#!/usr/bin/env node
/**
 * Builds packages/cli/dist/: the `switchyard` command bundled into plain ESM, so the bin
 * starts without compiling TypeScript at run time (an agent CLI spawns `mcp-serve` once per
 * step, and its startup is on every step's critical path).
 *
 * Workspace packages (@switchyard/*) and npm packages are bundled: one parse of a few
 * files starts about twice as fast as resolving and loading the SDK, zod and ajv from
 * node_modules file by file (docs/benchmarks.md). Code splitting keeps lazily imported
 * commands in their own chunks. dist/inputs.json lists the workspace sources of the build
 * (plus package-lock.json, for the npm packages), so the bin can tell when dist/ is older
 * than them. dist/switchyard.mjs runs the build's entry: agent steps start their proxy as
 * `node <dist>/switchyard.mjs mcp-serve`, from dist/ itself or from a copy of it.
 *
 *   node packages/cli/bin/build.mjs [--entry <file.ts>] [--outdir <dir>] [--external-deps]
 *
 * `--entry`/`--outdir` build another entry (used to compare startup variants) and
 * `--external-deps` leaves npm packages to load from node_modules.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = path.resolve(CLI, "../..");
const STALE_FILE_MS = 10 * 60_000;

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : fallback;
};
const entry = option("--entry", path.join(CLI, "src/main.ts"));
const outdir = option("--outdir", path.join(CLI, "dist"));
const bundleDeps = !process.argv.includes("--external-deps");

/** Every npm package the cli and the workspace packages it bundles depend on. */
const npmPackages = async () => {
  const names = new Set();
  for (const dir of [CLI, path.join(ROOT, "packages/core"), path.join(ROOT, "packages/client")]) {
    const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
      if (!name.startsWith("@switchyard/")) names.add(name);
  }
  return [...names];
};

// Build into a fresh folder inside dist/, then move the files in. Every name carries a content
// hash and inputs.json (which names the entry) is replaced last, so a bin that is starting
// or running (and may still import one of its lazy chunks) never sees half a build, and
// two builds at once (parallel test files) cannot break each other.
const staging = path.join(outdir, `.staging-${process.pid}`);
// Sources changed after this instant make the build stale, even while it is being written.
const startedAt = Date.now();
await rm(staging, { recursive: true, force: true });
try {
  const result = await build({
    entryPoints: { switchyard: entry },
    outdir: staging,
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    external: bundleDeps ? [] : await npmPackages(),
    // Bundled CommonJS packages call require(); ESM output has none of its own.
    banner: bundleDeps
      ? {
          js: 'import { createRequire as __syCreateRequire } from "node:module"; const require = __syCreateRequire(import.meta.url);',
        }
      : {},
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => path.resolve(process.cwd(), p));
  // The build's own entry: lazily imported commands are entry points of their chunks too.
  const entryFile = Object.entries(result.metafile.outputs).find(
    ([, o]) => o.entryPoint && path.resolve(process.cwd(), o.entryPoint) === entry,
  )?.[0];
  if (!entryFile) throw new Error("esbuild produced no entry file");
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => path.resolve(process.cwd(), p))
    .filter((p) => !p.split(path.sep).includes("node_modules"))
    // Resolution and the build itself are inputs too.
    .concat(fileURLToPath(import.meta.url), path.join(CLI, "package.json"))
    .concat(path.join(ROOT, "packages/core/package.json"), path.join(ROOT, "package-lock.json"))
    .concat(path.join(ROOT, "packages/client/package.json"))
    .map((p) => path.relative(outdir, p))
    .sort();
  // Scripts the bundle runs by path rather than imports: the loopback forwarder goes into
  // no-network step sandboxes next to the model gateway's socket.
  const FORWARDER = path.join(ROOT, "packages/core/src/gateway/loopback-forwarder.mjs");
  await copyFile(FORWARDER, path.join(staging, "loopback-forwarder.mjs"));
  inputs.push(path.relative(outdir, FORWARDER));
  // The launcher a step's proxy starts from this folder (`node <dir>/switchyard.mjs
  // mcp-serve ...`): it runs this build's entry, whose own module only exports `main`. A
  // staged copy gets the same text from packages/core/src/providers/step/step-proxy.ts.
  const LAUNCHER = "switchyard.mjs";
  await writeFile(
    path.join(staging, LAUNCHER),
    `const { main } = await import(${JSON.stringify(`./${path.basename(entryFile)}`)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  const names = new Set([
    ...outputs.map((p) => path.basename(p)),
    "loopback-forwarder.mjs",
    LAUNCHER,
  ]);
  for (const name of names) await rename(path.join(staging, name), path.join(outdir, name));
  const manifest = {
    entry: path.basename(entryFile),
    started_at: startedAt,
    inputs,
  };
  await writeFile(path.join(staging, "inputs.json"), `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(path.join(staging, "inputs.json"), path.join(outdir, "inputs.json"));
  // Files of earlier builds (and staging folders of killed builds) go once no bin can still
  // be loading them.
  for (const name of await readdir(outdir)) {
    if (name === "inputs.json" || names.has(name)) continue;
    const file = path.join(outdir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_FILE_MS)
      await rm(file, { recursive: true, force: true });
  }
} finally {
  await rm(staging, { recursive: true, force: true });
}
