/**
 * How an agent CLI step ends when its proxy or its model fails, one row per CLI, each the
 * real pinned CLI run by runCliStep as the worker runs it (step sandbox, staged CLI, model
 * gateway, the step's `switchyard mcp-serve` as its only MCP server) against the scripted
 * model on loopback. A proxy that never starts fails the step with the proxy's code even
 * when the model answers at once; a proxy that ends before the answer fails it too; a model
 * endpoint that refuses the request fails it with the CLI's own error (the vendor's message,
 * scrubbed), not with the proxy's end that follows it. A healthy proxy and a model that
 * answers at once still succeed.
 *
 * A CLI missing from the agents folder is installed on demand; only when that fails is its
 * row skipped, saying why.
 */
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ErrorCode } from "../../errors";
import { stepBaseUrl } from "../../gateway";
import { CLI_PROVIDERS } from "../cli-providers";
import {
  brokenCli,
  CLI_ROWS,
  openCliStepKit,
  runKitStep,
  type CliStepKit,
  type KitStepRun,
  installedAgent,
  agentsDirOf,
} from "@switchyard/testing/agents";

/** Each CLI's row (CLI_ROWS: the model it is told to use), with a team key of its own. */
const ROWS = CLI_ROWS.map((row) => ({ ...row, key: `sk-team-${row.agent}-52c9e0a7b3d1f486` }));

const ANSWER = "Answered without a single tool.";
const MARKER = "vendor-says-0b7e4c";
const CASE_MS = 120_000;

/** Every model request answered with ANSWER, after `delayMs`. */
const answering = (delayMs = 0) => ({
  script: { turns: [], rules: [{ match: { method: "POST" }, text: ANSWER, delayMs }] },
});

/** A proxy that exits at once, saying why on stderr, before it ever reaches the step channel. */
const EXITS_AT_ONCE = `process.stderr.write("switchyard mcp-serve: refused to start\\n");
process.exit(3);
`;

/**
 * The real proxy, which ends once it has listed its tools (it said ready before that): the
 * CLI has its tools, and the model's answer comes after the proxy is gone.
 */
const endsAfterListing = (entry: string) => `const { main } = await import("./${entry}");
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"tools":[')) setTimeout(() => process.exit(9), 200);
  return write(chunk, ...rest);
};
process.exitCode = await main(process.argv.slice(2));
`;

/** The step failed with `code` (its family's exit code), its error saying `says` first, and the last event says so too. */
const expectFailed = (r: KitStepRun, code: ErrorCode, says: string, exitCode: number) => {
  const why = JSON.stringify(r, null, 1);
  expect(r.errorCode, why).toBe(code);
  expect(r.error?.startsWith(`${code}: ${says}`), why).toBe(true);
  expect(r.exitCode, why).toBe(exitCode);
  expect(r.events.at(-1), why).toMatchObject({ type: "error", code });
};

describe.each(ROWS)("a $agent step", (row) => {
  const say = (line: string) => console.log(`[cli-step-end] ${line}`);
  const located = installedAgent(agentsDirOf(process.env), row.agent, say, process.env);
  const { cli: provider } = CLI_PROVIDERS[row.agent]!;
  let kit: CliStepKit;
  let model: ScriptedModel | undefined;

  beforeAll(async () => {
    if (located) kit = await openCliStepKit(`cli-step-end-${row.agent}`, process.env);
  }, CASE_MS);
  afterAll(async () => {
    await kit?.close();
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  const run = async (cli?: Awaited<ReturnType<typeof brokenCli>>) =>
    runKitStep(kit, {
      provider,
      agent: await kit.stage(row.agent, located!.version),
      prompt: "Say something.",
      options: { model: row.model },
      upstream: { baseUrl: stepBaseUrl(provider.vendor, model!.url), apiKey: row.key },
      ...(cli ? { cli } : {}),
    });

  it.skipIf(!located)(
    "succeeds with the answer when its proxy starts, though the model answers at once",
    async () => {
      model = await startScriptedModel(answering());
      const r = await run();
      expect(r, JSON.stringify(r, null, 1)).toMatchObject({ output: ANSWER, exitCode: 0 });
      expect(r.error).toBeUndefined();
      expect(r.events.filter((e) => e.type === "error")).toEqual([]);
    },
    CASE_MS,
  );

  it.skipIf(!located)(
    "fails with EXECUTION.MCP_PROXY.NOT_READY when its proxy never starts, though the model answers at once",
    async () => {
      model = await startScriptedModel(answering());
      const r = await run(await brokenCli(kit, "exits", EXITS_AT_ONCE));
      expectFailed(r, "EXECUTION.MCP_PROXY.NOT_READY", "the step's MCP proxy did not start", 3);
      expect(r.records).toEqual([]);
    },
    CASE_MS,
  );

  it.skipIf(!located)(
    "fails with EXECUTION.MCP_PROXY.UNAVAILABLE when its proxy ends before the answer, though the CLI then answers",
    async () => {
      model = await startScriptedModel(answering(2500));
      const r = await run(await brokenCli(kit, "ends", endsAfterListing(kit.cli.entry)));
      const says = "the step's MCP proxy ended before the agent answered";
      expectFailed(r, "EXECUTION.MCP_PROXY.UNAVAILABLE", says, 3);
    },
    CASE_MS,
  );

  it.skipIf(!located)(
    "fails with USER.PROVIDER.REQUEST_REJECTED and the vendor's message, scrubbed, when the model endpoint answers 400",
    async () => {
      const message = `${MARKER}: the request was refused for key ${row.key}`;
      const rule = { match: { method: "POST" }, error: { status: 400, message } };
      model = await startScriptedModel({ script: { turns: [], rules: [rule] } });
      const r = await run();
      expectFailed(r, "USER.PROVIDER.REQUEST_REJECTED", "", 1);
      expect(r.error).toContain(MARKER);
      expect(r.events.filter((e) => e.type === "error")).toHaveLength(1);
      expect(JSON.stringify(r)).not.toContain(row.key);
    },
    CASE_MS,
  );
});
