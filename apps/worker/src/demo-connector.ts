/**
 * Builds the demo connector (demo-connector/server.ts) into one plain ESM file at boot, in
 * a folder of the worker's own that connector sandboxes see read-only at
 * BUILTIN_CONNECTORS_INSIDE, so it starts without TypeScript, node_modules or anything an
 * admin installed. The seed registers it for the demo team as `node <that folder>/demo-connector.mjs`.
 */
import { chmod, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), "demo-connector/server.ts");
/** The file's name in the built-in connectors folder. */
const DEMO_CONNECTOR_FILE = "demo-connector.mjs";

/** Builds the connector into `dir` (made 0755, the file 0644: connector uids read it) and returns `dir`. */
export const buildDemoConnector = async (dir: string): Promise<string> => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const staged = path.join(dir, `.${DEMO_CONNECTOR_FILE}.tmp`);
  await build({
    entryPoints: [SOURCE],
    outfile: staged,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    banner: {
      js: 'import { createRequire as __syCreateRequire } from "node:module"; const require = __syCreateRequire(import.meta.url);',
    },
  });
  await chmod(staged, 0o644);
  await rename(staged, path.join(dir, DEMO_CONNECTOR_FILE));
  return dir;
};
