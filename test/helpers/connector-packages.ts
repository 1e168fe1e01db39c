/**
 * A connectors folder for the suite, as an admin would make one (`npm install --prefix`):
 * the real MCP server package @modelcontextprotocol/server-everything at the root's pinned
 * version (from npm's cache when it is there), plus the suite's fixture server beside it
 * (it resolves the SDK from the folder's node_modules). Installed once per machine; the
 * fixture is copied under a name of its content, so a changed fixture is a new file.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CONNECTORS_DIR = path.join(homedir(), ".cache/switchyard/connectors-test");
const EVERYTHING = "@modelcontextprotocol/server-everything";

/** Installs what is missing; returns the commands as a connector runs them (paths under /opt/connectors). */
export const connectorPackages = () => {
  const pinned = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies[EVERYTHING]!;
  const installed = path.join(CONNECTORS_DIR, "node_modules", EVERYTHING, "package.json");
  const version = existsSync(installed)
    ? (JSON.parse(readFileSync(installed, "utf8")) as { version: string }).version
    : undefined;
  if (version !== pinned) {
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        CONNECTORS_DIR,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `${EVERYTHING}@${pinned}`,
      ],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    if (npm.status !== 0) throw new Error(`installing ${EVERYTHING} failed: ${npm.stderr}`);
  }
  const fixture = path.join(ROOT, "test/fixtures/fixture-mcp-server.mjs");
  const name = `fixture-${createHash("sha256").update(readFileSync(fixture)).digest("hex").slice(0, 12)}.mjs`;
  if (!existsSync(path.join(CONNECTORS_DIR, name)))
    copyFileSync(fixture, path.join(CONNECTORS_DIR, name));
  return {
    dir: CONNECTORS_DIR,
    everything: {
      command: "node",
      args: [`/opt/connectors/node_modules/${EVERYTHING}/dist/index.js`, "stdio"],
    },
    fixture: { command: "node", args: [`/opt/connectors/${name}`] },
  };
};
