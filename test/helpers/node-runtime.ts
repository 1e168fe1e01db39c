/**
 * The Node 22 runtime the agent CLIs run under (scripts/agents.json `runtime`), for tests of
 * tools that need Node 22 while the project runs on Node 20: found by its install stamp in
 * the agents folder, installed there on demand (`npm run agents:install -- --runtime-only`,
 * once per machine), else an error saying what to run.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import path from "node:path";
import { AGENTS_DIR } from "./agent-cli";
import { REPO_ROOT } from "./worker-process";

type Pin = { name: string; package: string; version: string };

const pin = (): Pin =>
  (
    JSON.parse(readFileSync(path.join(REPO_ROOT, "scripts/agents.json"), "utf8")) as {
      runtime: Pin;
    }
  ).runtime;

/** The runtime's node binary when the pinned version is installed, else why not. */
const locate = (runtime: Pin): { node: string } | { missing: string } => {
  const prefix = path.join(AGENTS_DIR, runtime.name);
  const stampFile = path.join(prefix, "switchyard-agent.json");
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as {
      package?: string;
      version?: string;
      entry?: string;
    };
    if (stamp.package !== runtime.package || stamp.version !== runtime.version)
      return { missing: `${stampFile} names ${stamp.package}@${stamp.version}` };
    const node = path.resolve(prefix, stamp.entry ?? "");
    accessSync(node, constants.X_OK);
    return { node };
  } catch (error) {
    return { missing: `${stampFile}: ${(error as Error).message}` };
  }
};

/** The pinned Node 22 binary, installing it first when it is not there. */
export const nodeRuntime = (say: (line: string) => void): string => {
  const runtime = pin();
  const found = locate(runtime);
  if ("node" in found) return found.node;
  say(`${runtime.package}@${runtime.version} is not installed (${found.missing}); installing it`);
  const install = spawnSync(
    "bash",
    [path.join(REPO_ROOT, "scripts/agents-install.sh"), "--runtime-only"],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, SWITCHYARD_AGENTS_DIR: AGENTS_DIR },
      timeout: 10 * 60_000,
    },
  );
  const again = locate(runtime);
  if ("node" in again) return again.node;
  throw new Error(
    `the Node runtime ${runtime.package}@${runtime.version} could not be installed into ${AGENTS_DIR} (exit ${install.status}): ${again.missing}; run \`npm run agents:install -- --runtime-only\``,
  );
};
