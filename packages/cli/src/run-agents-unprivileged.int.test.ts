/**
 * `switchyard run` agent steps for a person who is not root, as on a laptop: uid 65534 with
 * a HOME of its own and the CLIs in an agents folder of its own (a tree of hard links of the
 * suite's, which it can read), through the real bin, for every provider, at the default
 * level (namespaces: no uid of the step's own) and at `--sandbox none`. Each step's model
 * (the scripted model on 127.0.0.1) asks for Write, then Read, through the step's proxy:
 * the file lands in the person's workspace, as theirs, and the answer reaches the next state.
 * A Codex whose agents folder says another version than its pin runs all the same, with one
 * warning line. Run by someone who is not root, the test runs as them instead of uid 65534.
 */
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  buildCli,
  cliForOthers,
  PERSON_UID,
  runAsPerson as runCliAsPerson,
} from "@switchyard/testing/sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_ENV } from "../../core/src/providers/cli-providers";
import { stageTree } from "../../core/src/providers/step/stage-agent";
import {
  driftedAgentsDir,
  installedAgent,
  agentsDirOf,
  pinnedVersion,
  PROVIDER_ROWS,
  WRITE_READ_ANSWER,
  writeReadTurns,
  writeReadWorkflow,
  writtenBy,
  type ProviderRow,
} from "@switchyard/testing/agents";

const AGENTS_DIR = agentsDirOf(process.env);
/** Who runs `switchyard run`: uid 65534 when the suite is root, else the suite's own user. */
const PERSON = PERSON_UID;
const KEY_HEAD = "sk-laptop-user";
const KEY = `${KEY_HEAD}-9e41c7a2d05b`;

/** The person's variables for the row's vendor (its key and endpoint); OPENAI_API_KEY for openai_compatible. */
const personEnv = (row: ProviderRow, url: string): Record<string, string> =>
  row.vendor
    ? {
        [VENDOR_ENV[row.vendor].key[0]!]: KEY,
        [VENDOR_ENV[row.vendor].baseUrl[0]!]: row.endpoint(url),
      }
    : { OPENAI_API_KEY: KEY };

const say = (line: string) => console.log(`[run-unprivileged] ${line}`);
const missing = new Set(
  PROVIDER_ROWS.flatMap((row) =>
    row.agent && !installedAgent(AGENTS_DIR, row.agent, say, process.env) ? [row.agent] : [],
  ),
);

/** The person's own folders: HOME, the agents folder, the workflows; a workspace per run. */
let base: string;
/** The built command, copied where the person can read it (the checkout may not be). */
let bin: string;
let model: ScriptedModel | undefined;

const ownFolder = (dir: string) => {
  mkdirSync(dir, { mode: 0o755 });
  chownSync(dir, PERSON, PERSON);
  return dir;
};

beforeAll(async () => {
  await buildCli();
  base = mkdtempSync(path.join(tmpdir(), "sy-run-person-"));
  chmodSync(base, 0o755);
  bin = cliForOthers(base);
  ownFolder(path.join(base, "home"));
  mkdirSync(path.join(base, "flows"), { mode: 0o755 });
  // Root's files, readable by anyone: the person reads the CLIs where they are, as on a laptop.
  await stageTree(AGENTS_DIR, path.join(base, "agents"));
}, 300_000);
afterEach(async () => {
  await model?.close();
  model = undefined;
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** `switchyard run <flow> ...args` as the person, in `workspace`, with only their own variables. */
const runAsPerson = (workspace: string, args: string[], env: Record<string, string>) =>
  runCliAsPerson(bin, ["run", ...args], {
    cwd: workspace,
    env: {
      HOME: path.join(base, "home"),
      SWITCHYARD_AGENTS_DIR: path.join(base, "agents"),
      ...env,
    },
  });

const flowFor = (row: ProviderRow, url: string) => {
  const file = path.join(base, "flows", `${row.provider}.yaml`);
  writeFileSync(file, writeReadWorkflow(`laptop-${row.provider.replace(/_/g, "-")}`, row, url), {
    mode: 0o644,
  });
  return file;
};

const LEVELS = [
  { name: "namespaces (the default)", args: [], line: /^sandbox: namespaces$/m },
  { name: "none", args: ["--sandbox", "none"], line: /^sandbox: NONE: steps run UNCONFINED/m },
];

describe.each(LEVELS)(
  "switchyard run as a person who is not root, sandbox level $name",
  (level) => {
    it.each(PROVIDER_ROWS)(
      "runs a $provider step whose tools go through the proxy",
      async (row) => {
        if (row.agent && missing.has(row.agent))
          return say(`SKIPPED ${row.provider}: not installed`);
        model = await startScriptedModel({
          host: "127.0.0.1",
          script: { turns: writeReadTurns(row) },
        });
        const workspace = ownFolder(path.join(base, `ws-${row.provider}-${level.args.length}`));
        try {
          const r = await runAsPerson(
            workspace,
            [flowFor(row, model.url), ...level.args],
            personEnv(row, model.url),
          );
          expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
          expect(model.failures).toEqual([]);
          expect(r.err).toMatch(level.line);
          expect(r.out).toContain(`answer=${WRITE_READ_ANSWER}`);
          expect(r.err).toMatch(/⚒ \[agent\] Write /);
          expect(r.err).toMatch(/⚒ \[agent\] Read /);
          expect(readFileSync(path.join(workspace, "notes/hi.txt"), "utf8")).toBe(writtenBy(row));
          expect(statSync(path.join(workspace, "notes/hi.txt")).uid).toBe(PERSON);
          // The person's key went upstream with every request, and nowhere into what was printed.
          const turns = model.requests.filter((q) => q.auth.length > 0);
          expect(turns.length).toBeGreaterThanOrEqual(3);
          expect(turns.every((q) => q.auth.some((a) => a.fingerprint === fingerprint(KEY)))).toBe(
            true,
          );
          expect(r.out + r.err).not.toContain(KEY);
        } finally {
          rmSync(workspace, { recursive: true, force: true });
        }
      },
      300_000,
    );
  },
);

it("warns once on stderr, and runs the step all the same, when the installed CLI is not the pinned version", async () => {
  const row = PROVIDER_ROWS.find((r) => r.provider === "codex")!;
  if (missing.has("codex")) return say("SKIPPED codex: not installed");
  const pinned = pinnedVersion("codex");
  const agentsDir = await driftedAgentsDir(
    AGENTS_DIR,
    path.join(base, "agents-drifted"),
    "codex",
    "0.170.9",
  );
  model = await startScriptedModel({ host: "127.0.0.1", script: { turns: writeReadTurns(row) } });
  const workspace = ownFolder(path.join(base, "ws-drifted"));
  try {
    const r = await runAsPerson(workspace, [flowFor(row, model.url)], {
      ...personEnv(row, model.url),
      SWITCHYARD_AGENTS_DIR: agentsDir,
    });
    expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
    expect(r.out).toContain(`answer=${WRITE_READ_ANSWER}`);
    const warning = `warning: codex 0.170.9 is installed in ${agentsDir}, but scripts/agents.json pins ${pinned}`;
    expect(r.err.split(warning)).toHaveLength(2);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}, 300_000);

it("refuses a step with approval rules instead of running its calls unapproved", async () => {
  const workspace = ownFolder(path.join(base, "ws-approve"));
  const file = path.join(base, "flows", "approve.yaml");
  writeFileSync(
    file,
    `name: laptop-approve
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: write it
    options: { base_url: "http://127.0.0.1:9/v1", model: scripted-1 }
    mcp_proxy:
      approve: [{ tool: Write }]
    on_success: done
  done: { type: terminal }
`,
    { mode: 0o644 },
  );
  try {
    const r = await runAsPerson(workspace, [file], {});
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain("USER.UNSUPPORTED_FEATURE");
    expect(r.err).toContain("mcp_proxy.approve");
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}, 120_000);

it("refuses a conversation step, naming its line, instead of reading turns it cannot take", async () => {
  const workspace = ownFolder(path.join(base, "ws-chat"));
  const file = path.join(base, "flows", "chat.yaml");
  writeFileSync(
    file,
    `name: laptop-chat
states:
  initial: chat
  chat:
    type: agent
    provider: openai_compatible
    mode: conversation
    prompt: hello
    options: { base_url: "http://127.0.0.1:9/v1", model: scripted-1 }
    on_success: done
  done: { type: terminal }
`,
    { mode: 0o644 },
  );
  try {
    const r = await runAsPerson(workspace, [file], {});
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain(`${file}:5:5: USER.UNSUPPORTED_FEATURE`);
    expect(r.err).toContain("mode: conversation");
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}, 120_000);
