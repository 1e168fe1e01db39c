/**
 * The `switchyard` command against a server, as a person on a laptop: the real bin run as
 * uid 65534 with a HOME of its own, talking over HTTP to the web app's REST API with a real
 * worker behind it. Login checks the token and stores it 0600; workflows are pushed, listed
 * and pulled; a followed run prints its steps' output as it goes and exits with the run's
 * outcome; mistakes (a bad token, no such workflow, an input that does not fit, a workflow
 * that does not validate) say what to do, with their codes.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSwitchyardClient, ok } from "@switchyard/client";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { TRIGGER_QUEUE, type TriggerJob } from "@switchyard/core/triggers";
import { createApiToken } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import {
  openPersonCli,
  PERSON,
  personFolder,
  runAsPerson,
  startAsPerson,
} from "@switchyard/testing/sandbox";
import { webEgress } from "~/server/egress";
import { environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, type RunStack } from "./helpers/run-stack";
import { startWebAppServer, type WebAppServer } from "./helpers/web-app-server";
import { waitFor } from "./helpers/worker-process";

const keyring = environmentKeyring();

let stack: RunStack;
let web: WebAppServer;
let token: string;
let base: string;
let bin: string;
let flows: string;

/** `switchyard ...args` as the person, stdin a pipe holding `stdin`; env adds to HOME and PATH. */
const sy = (args: string[], env: Record<string, string> = {}, stdin = "") =>
  runAsPerson({
    bin,
    args,
    cwd: flows,
    env: { HOME: path.join(base, "home"), ...env },
    how: { stdin },
    timeoutMs: 120_000,
  });

/** `switchyard <command>` (its words split on spaces) with the server and token in the environment. */
const withToken = (command: string) =>
  sy(command.split(" "), { SWITCHYARD_URL: web.origin, SWITCHYARD_TOKEN: token });

/** The same, started for a test that acts while it runs. */
const startWithToken = (command: string) =>
  startAsPerson({ base, bin }, flows, command.split(" "), {
    SWITCHYARD_URL: web.origin,
    SWITCHYARD_TOKEN: token,
  });

/** `switchyard <command>` exits with `exit` and says `text` on stderr. */
const refused = async (command: string, exit: number, text: string) => {
  const { code, err } = await withToken(command);
  expect(code, err).toBe(exit);
  expect(err).toContain(text);
};

const GREET = `name: cli-greet
description: Greets twice, a second apart.
lane: default
inputs:
  - name: who
    type: string
    required: true
  - name: times
    type: integer
    default: 2
states:
  initial: greet
  greet:
    type: step
    command: for i in $(seq {{.inputs.times}}); do echo "hello {{.inputs.who}} $i"; sleep 1; done
    on_success: done
  done:
    type: terminal
    status: success
`;
const BUNDLED = `name: cli-bundled
lane: default
states:
  initial: hi
  hi:
    type: step
    script_file: scripts/hi.sh
    on_success: done
  done:
    type: terminal
    status: success
`;
const FAILS = `name: cli-fails
lane: default
states:
  initial: fail
  fail:
    type: step
    command: echo "about to fail" && exit 7
    on_success: done
    on_failure: failed
  done:
    type: terminal
    status: success
  failed:
    type: terminal
    status: failure
`;
const SLOW = `name: cli-slow
lane: default
states:
  initial: wait
  wait:
    type: step
    command: echo "started waiting" && sleep 60
    on_success: done
  done:
    type: terminal
    status: success
`;

beforeAll(async () => {
  stack = await openRunStack();
  const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
  web = await startWebAppServer(() => ({
    db: stack.db,
    queue: stack.queue,
    redis: stack.redis,
    prefix: stack.prefix,
    keyring,
    egress,
  }));
  token = (
    await createApiToken(stack.db, { teamId: stack.teamId, userId: stack.adminId, name: "laptop" })
  ).token;
  ({ base, bin } = await openPersonCli("sy-cli-server-"));
  flows = personFolder(path.join(base, "flows"));
  for (const [file, text] of [
    ["cli-greet.yaml", GREET],
    ["cli-fails.yaml", FAILS],
    ["cli-slow.yaml", SLOW],
    ["broken.yaml", "name: broken\nlane: default\nstates:\n  initial: nowhere\n"],
  ] as const)
    writeFileSync(path.join(flows, file), text, { mode: 0o644 });
}, 180_000);

afterAll(async () => {
  await web?.close();
  await closeRunStack(stack ?? {});
});

describe("switchyard login", () => {
  it("checks the token against the server and stores it readable by the person alone; later commands use it", async () => {
    const login = await sy(["login", web.origin], {}, `${token}\n`);
    expect(login.err).toBe("");
    expect(login.code).toBe(0);
    expect(login.out).toContain(`Logged in to ${web.origin}`);
    const file = path.join(base, "home/.config/switchyard/credentials.json");
    const info = statSync(file);
    expect(info.mode & 0o777).toBe(0o600);
    expect(info.uid).toBe(PERSON);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: web.origin, token });

    const listed = await sy(["workflows", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^hello-world\s+default\s+v1\s+\S+$/m);

    // XDG_CONFIG_HOME is where the login goes when set.
    const xdg = personFolder(path.join(base, "xdg"));
    expect((await sy(["login", web.origin], { XDG_CONFIG_HOME: xdg }, `${token}\n`)).code).toBe(0);
    expect(statSync(path.join(xdg, "switchyard/credentials.json")).mode & 0o777).toBe(0o600);
  });

  it("refuses a token the server does not know, says what to do, and stores nothing", async () => {
    const home = personFolder(path.join(base, "home-bad"));
    const login = await sy(["login", web.origin], { HOME: home }, "sy_not-a-real-token\n");
    expect(login.code).toBe(1);
    expect(login.err).toContain("[UNAUTHORIZED]");
    expect(login.err).toContain("Settings → API tokens");
    expect(() => statSync(path.join(home, ".config/switchyard/credentials.json"))).toThrow();
    // Not logged in at all: the command says how to log in.
    const list = await sy(["runs", "list"], { HOME: home });
    expect(list.code).toBe(1);
    expect(list.err).toContain("switchyard login <url>");
    // SWITCHYARD_TOKEN wins over a stored login: a revoked one is refused.
    const env = await sy(["workflows", "list"], { SWITCHYARD_TOKEN: "sy_wrong" });
    expect(env.code).toBe(1);
    expect(env.err).toContain("[UNAUTHORIZED]");
    // A server that does not answer is named.
    const nowhere = await sy(["workflows", "list"], {
      SWITCHYARD_URL: "http://127.0.0.1:9",
      SWITCHYARD_TOKEN: token,
    });
    expect(nowhere.code).toBe(4);
    expect(nowhere.err).toContain("could not reach the Switchyard server at http://127.0.0.1:9");
  });
});

describe("switchyard workflows", () => {
  it("pushes a file as a new version, lists it and pulls its files back", async () => {
    for (const file of ["cli-greet.yaml", "cli-fails.yaml", "cli-slow.yaml"]) {
      const pushed = await withToken(`workflows push ${file}`);
      expect(pushed.err).toBe("");
      expect(pushed.code).toBe(0);
      expect(pushed.out).toMatch(/^Saved .* as version 1 /);
    }
    const listed = await withToken("workflows list --json");
    const workflows = JSON.parse(listed.out) as { name: string; version: number }[];
    expect(workflows).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "cli-greet", version: 1 })]),
    );
    const into = personFolder(path.join(base, "pulled"));
    const pulled = await withToken(`workflows pull cli-greet --dir ${into}`);
    expect(pulled.code).toBe(0);
    expect(readFileSync(path.join(into, "cli-greet.yaml"), "utf8")).toBe(GREET);
    await refused("workflows pull no-such-flow", 1, '[NOT_FOUND] no workflow named "no-such-flow"');
    await refused(
      "workflows pull no-such-flow",
      1,
      "`switchyard workflows list` shows their names",
    );
  });

  it("pushes a workflow with its folder's files as its bundle with --folder; pull writes them back", async () => {
    const folder = personFolder(path.join(flows, "bundled"));
    personFolder(path.join(folder, "scripts"));
    writeFileSync(path.join(folder, "flow.yaml"), BUNDLED, { mode: 0o644 });
    writeFileSync(path.join(folder, "scripts/hi.sh"), 'echo "from the bundle"\n', { mode: 0o644 });
    // A person's hidden files stay on their machine: the bundle is the team's to read.
    writeFileSync(path.join(folder, ".env"), "DEPLOY_KEY=kept-at-home\n", { mode: 0o644 });
    // Alone, the file names a script its bundle does not have.
    const alone = await withToken("workflows push bundled/flow.yaml");
    expect(alone.code, alone.err).toBe(2);
    expect(alone.err).toMatch(/^bundled\/flow\.yaml:6:5: \[USER\.INPUT\.MISSING_FILE\] /m);
    expect(alone.err).toContain("scripts/hi.sh");
    const pushed = await withToken("workflows push bundled/flow.yaml --folder");
    expect(pushed.code, pushed.err).toBe(0);
    const ran = await withToken("runs start cli-bundled --follow");
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toBe("from the bundle\n");
    const into = personFolder(path.join(base, "pulled-bundle"));
    expect((await withToken(`workflows pull cli-bundled --dir ${into}`)).code).toBe(0);
    expect(readFileSync(path.join(into, "scripts/hi.sh"), "utf8")).toBe('echo "from the bundle"\n');
    expect(existsSync(path.join(into, ".env"))).toBe(false);
  });

  it("refuses a workflow that does not validate with each problem at its file, line and column, and saves nothing", async () => {
    const pushed = await withToken("workflows push broken.yaml");
    expect(pushed.code).toBe(2);
    expect(pushed.err).toMatch(/^broken\.yaml:\d+:\d+: \[WORKFLOW\.[A-Z_.]+\] /m);
    const listed = JSON.parse((await withToken("workflows list --json")).out) as {
      name: string;
    }[];
    expect(listed.map((w) => w.name)).not.toContain("broken");
  });
});

describe("switchyard runs", () => {
  it("follows a run: its step output as it goes, then exit 0 for a success; the run is listed, read and its logs printed", async () => {
    const run = startWithToken("runs start cli-greet --input who=Ada --follow");
    // The first line arrives while the step still runs (it sleeps a second between lines).
    await run.said("> greet (step)");
    // Heard while the run still runs: the events stream, they are not read once it has ended.
    const live = await stack.db.run.findFirstOrThrow({
      where: { teamId: stack.teamId, workflow: { name: "cli-greet" } },
      orderBy: { createdAt: "desc" },
    });
    expect(live.status).toBe("running");
    const ended = await run.ended;
    expect(ended.code, ended.err).toBe(0);
    expect(ended.out).toBe("hello Ada 1\nhello Ada 2\n");
    expect(ended.err).toMatch(/^run (\S+) queued$/m);
    expect(ended.err).toContain("< greet: success (exit 0)");
    const runId = /^run (\S+) queued$/m.exec(ended.err)![1]!;

    const listed = JSON.parse(
      (await withToken("runs list --workflow cli-greet --status succeeded,failed --json")).out,
    ) as { id: string; status: string }[];
    expect(listed).toEqual([expect.objectContaining({ id: runId, status: "succeeded" })]);
    const got = await withToken(`runs get ${runId}`);
    expect(got.out).toMatch(new RegExp(`^${runId}  cli-greet  succeeded$`, "m"));
    expect(got.out).toMatch(/^ {2}greet #1 {2}succeeded {2}exit 0$/m);
    const logs = await withToken(`runs logs ${runId}`);
    expect(logs.out).toContain("--- greet #1 succeeded\nhello Ada 1\nhello Ada 2\n");
  });

  it("exits with the run's outcome: 3 for a step that failed, with the error; --json gives the events and the end", async () => {
    const failed = await withToken("runs start cli-fails --follow");
    expect(failed.code).toBe(3);
    expect(failed.out).toBe("about to fail\n");
    expect(failed.err).toContain("< fail: failure (exit 7)");
    expect(failed.err).toMatch(/^finished: failed \[EXECUTION\.[A-Z_.]+\] /m);
    const json = await withToken("runs start cli-fails --follow --json");
    expect(json.code).toBe(3);
    const lines = json.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type)).toEqual(
      expect.arrayContaining(["run.started", "step.output", "run.finished"]),
    );
    expect(lines.at(-1)).toMatchObject({
      end: { reason: "run_ended", status: "failed" },
      run: { status: "failed" },
    });
  });

  it("says what is wrong with the inputs (the field) or the workflow's name, with their codes", async () => {
    await refused("runs start cli-greet", 1, "[USER.INPUT.VALIDATION_FAILED] inputs.who");
    await refused(
      "runs start cli-greet --input who=Ada --input times=many",
      1,
      "[USER.INPUT.VALIDATION_FAILED] inputs.times",
    );
    await refused("runs start no-such-flow", 1, '[NOT_FOUND] no workflow named "no-such-flow"');
    await refused("runs start cli-greet --imput who=Ada", 1, "--imput");
  });

  it("cancels a running run; the run it follows then exits 3, cancelled", async () => {
    const run = startWithToken("runs start cli-slow --follow");
    await run.said("> wait (step)");
    const listed = JSON.parse(
      (await withToken("runs list --workflow cli-slow --status running --json")).out,
    ) as { id: string }[];
    expect(listed).toHaveLength(1);
    const cancelled = await withToken(`runs cancel ${listed[0]!.id}`);
    expect(cancelled.code).toBe(0);
    expect(cancelled.out).toMatch(/ cancell(ing|ed)$/m);
    const ended = await run.ended;
    expect(ended.code).toBe(3);
    expect(ended.err).toContain("cancelled");
  });
});

describe("switchyard waits", () => {
  it("lists what waits for the person's answer, and refuses an answer to a wait that does not exist", async () => {
    const listed = await withToken("waits list");
    expect(listed.code).toBe(0);
    expect(listed.out).toBe("Nothing waits for your answer.\n");
    expect(JSON.parse((await withToken("waits list --all --json")).out)).toEqual([]);
    await refused("waits answer no-such-wait --approve", 1, "[NOT_FOUND]");
    await refused("waits answer w1", 1, "give one answer");
  });

  it("answers a scheduled run's input wait with the inputs it asks for; the run goes on with them", async () => {
    // The schedule is made through @switchyard/client, as a script would.
    const client = createSwitchyardClient({ url: web.origin, token });
    const { workflows } = await ok(client.GET("/workflows"));
    const greet = workflows.find((w) => w.name === "cli-greet")!;
    const { trigger } = await ok(
      client.POST("/workflows/{id}/triggers", {
        params: { path: { id: greet.id } },
        body: { kind: "schedule", cron: "0 0 1 1 *", timezone: "UTC" },
      }),
    );
    const triggers = new Queue<TriggerJob>(TRIGGER_QUEUE, {
      connection: stack.redis,
      prefix: stack.prefix,
    });
    await triggers.add("fire", { triggerId: trigger.id, teamId: stack.teamId });
    await triggers.close();
    const runId = await waitFor(
      async () =>
        (await ok(client.GET("/triggers/{id}", { params: { path: { id: trigger.id } } })))
          .lastRunId ?? undefined,
      20_000,
      "the schedule to start a run",
    );
    const waitId = await waitFor(
      async () => {
        const listed = JSON.parse((await withToken("waits list --json")).out) as {
          id: string;
          runId: string;
          kind: string;
        }[];
        return listed.find((w) => w.runId === runId && w.kind === "input")?.id;
      },
      20_000,
      "the run's input wait",
    );
    const human = await withToken("waits list");
    expect(human.out).toMatch(new RegExp(`^${waitId}  input\\s+open\\s+cli-greet  `, "m"));
    await refused(
      `waits answer ${waitId} --input who=Bo --input times=x`,
      1,
      "[USER.INPUT.VALIDATION_FAILED] inputs.times",
    );
    const answered = await withToken(`waits answer ${waitId} --input who=Bo --input times=1`);
    expect(answered.err).toBe("");
    expect(answered.out).toBe(`${waitId} answered; the run goes on\n`);
    const run = await waitFor(
      async () => {
        const got = JSON.parse((await withToken(`runs get ${runId} --json`)).out) as {
          status: string;
          steps: { stdout: string }[];
        };
        return got.status === "succeeded" ? got : undefined;
      },
      30_000,
      "the answered run to succeed",
    );
    expect(run.steps[0]!.stdout).toBe("hello Bo 1\n");
  });
});
