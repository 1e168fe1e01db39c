/**
 * Builds the demo connector (demo-connector/server.ts) into one plain ESM file, in a folder
 * of the worker's own that connector sandboxes see read-only at BUILTIN_CONNECTORS_INSIDE,
 * so it starts without TypeScript, node_modules or anything an admin installed. The seed
 * registers it for the demo team as `node <that folder>/demo-connector.mjs`.
 *
 * The build (about 300 ms) is kept in ~/.cache/switchyard/builtin, named by a hash of its
 * source and of the versions of what it bundles, so a worker boots without it when nothing
 * changed. A kept build is used only from a folder and file that this user owns and no one
 * else may write; anything else is built again.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, copyFile, lstat, mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, version as esbuildVersion } from "esbuild";

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), "demo-connector/server.ts");
/** The file's name in the built-in connectors folder. */
const DEMO_CONNECTOR_FILE = "demo-connector.mjs";
/** What the build bundles besides its source: a new version of one builds it again. */
const BUNDLED = ["@modelcontextprotocol/sdk", "zod"];

export const defaultBuildCache = () => path.join(homedir(), ".cache/switchyard/builtin");

const versionOf = (name: string) => {
  const require = createRequire(SOURCE);
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    // A package that hides its package.json: its entry file's path names its version well enough.
    return require.resolve(name);
  }
};

const buildKey = async () => {
  const hash = createHash("sha256")
    .update(await readFile(SOURCE))
    .update(esbuildVersion);
  for (const name of BUNDLED) hash.update(`${name}@${versionOf(name)}`);
  return hash.digest("hex").slice(0, 24);
};

/** Whether `file` is this user's alone: owned by us, and neither it nor `dir` writable by others. */
const ownedAlone = async (dir: string, file: string) => {
  const uid = process.getuid?.();
  try {
    const [d, f] = await Promise.all([lstat(dir), lstat(file)]);
    return (
      d.isDirectory() &&
      f.isFile() &&
      (uid === undefined || (d.uid === uid && f.uid === uid)) &&
      (d.mode & 0o022) === 0 &&
      (f.mode & 0o022) === 0
    );
  } catch {
    return false;
  }
};

const esbuild = (outfile: string) =>
  build({
    entryPoints: [SOURCE],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    banner: {
      js: 'import { createRequire as __syCreateRequire } from "node:module"; const require = __syCreateRequire(import.meta.url);',
    },
  });

/** The kept build for this source, built first when there is none to trust. */
const keptBuild = async (cacheDir: string) => {
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const kept = path.join(cacheDir, `demo-connector-${await buildKey()}.mjs`);
  if (await ownedAlone(cacheDir, kept)) return kept;
  // Built beside it and renamed over it: workers booting at once never read half a file.
  const staged = `${kept}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await esbuild(staged);
    await chmod(staged, 0o644);
    await rename(staged, kept);
  } finally {
    await rm(staged, { force: true });
  }
  if (!(await ownedAlone(cacheDir, kept)))
    throw new Error(`${cacheDir} is writable by others; the demo connector is not kept there`);
  // Builds of an earlier source go (one is kept at a time).
  for (const name of await readdir(cacheDir))
    if (
      name.startsWith("demo-connector-") &&
      name.endsWith(".mjs") &&
      path.join(cacheDir, name) !== kept
    )
      await rm(path.join(cacheDir, name), { force: true });
  return kept;
};

/** Puts the connector into `dir` (made 0755, the file 0644: connector uids read it) and returns `dir`. */
export const buildDemoConnector = async (
  dir: string,
  cacheDir = defaultBuildCache(),
): Promise<string> => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const staged = path.join(dir, `.${DEMO_CONNECTOR_FILE}.tmp`);
  await copyFile(await keptBuild(cacheDir), staged);
  await chmod(staged, 0o644);
  await rename(staged, path.join(dir, DEMO_CONNECTOR_FILE));
  return dir;
};
