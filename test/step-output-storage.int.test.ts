/**
 * What a step prints is stored whatever bytes it holds, through the real worker and
 * Postgres: U+0000 (which text and jsonb columns refuse) is stored as U+FFFD, and a step
 * row whose output cannot be stored is still closed, as failed with a clear error.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { listRunEvents, saveWorkflowVersion } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";

let stack: RunStack;

const caller = () => dashboardCaller(stack, stack.adminId);

const runToEnd = async (name: string, yaml: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": yaml },
  });
  const { id } = await caller().runs.start({ workflowId });
  return runEnded(() => caller().runs.get({ id }), `run ${id}`);
};

beforeAll(async () => {
  stack = await openRunStack();
});
afterAll(() => closeRunStack(stack));

it("stores a step's output with a NUL byte (as U+FFFD), closes its row and finishes the run", async () => {
  const run = await runToEnd(
    "nul-output",
    `name: nul-output
states:
  initial: nul
  nul:
    type: step
    command: |
      printf 'a\\0b'; printf 'e\\0r' >&2
    capture:
      stdout: printed
    on_success: json
  json:
    type: step
    command: |
      printf '%s' '{"k\\u0000": "v\\u0000"}'
    on_success: after
  after:
    type: step
    command: echo after
    on_success: done
  done:
    type: terminal
`,
  );
  expect(run.status).toBe("succeeded");
  expect(run.steps.map((s) => [s.stateName, s.status])).toEqual([
    ["nul", "succeeded"],
    ["json", "succeeded"],
    ["after", "succeeded"],
  ]);
  const nul = run.steps[0]!;
  expect(nul.stdout).toBe("a\uFFFDb");
  expect(nul.stderr).toBe("e\uFFFDr");
  expect(nul.output).toBe("a\uFFFDb");
  expect(nul.finishedAt).not.toBeNull();
  const events = await listRunEvents(stack.db, stack.teamId, run.id);
  expect(events.map((e) => e.type)).toContain("run.finished");
  const row = await stack.db.run.findFirst({ where: { id: run.id }, select: { checkpoint: true } });
  const checkpoint = row?.checkpoint as {
    context: Record<string, string>;
    results: Record<string, { response?: unknown }>;
  };
  expect(checkpoint.context.printed).toBe("a\uFFFDb");
  // JSON a step printed with an escaped NUL is parsed, and stored with U+FFFD in keys and values.
  expect(checkpoint.results.json?.response).toEqual({ "k\uFFFD": "v\uFFFD" });
});

it("closes a step row as failed with a clear error when its output cannot be stored", async () => {
  await stack.db
    .$executeRawUnsafe(`CREATE FUNCTION refuse_step_output() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.stdout LIKE '%refuse-this-output%' THEN RAISE EXCEPTION 'test refuses this output'; END IF;
  RETURN NEW;
END $$`);
  await stack.db.$executeRawUnsafe(
    `CREATE TRIGGER refuse_step_output BEFORE UPDATE ON "StepRun" FOR EACH ROW EXECUTE FUNCTION refuse_step_output()`,
  );
  try {
    const run = await runToEnd(
      "unstorable-output",
      `name: unstorable-output
states:
  initial: loud
  loud:
    type: step
    command: echo refuse-this-output
    on_success: done
    on_failure: recovered
  recovered:
    type: step
    command: echo recovered
    on_success: done
  done:
    type: terminal
`,
    );
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => [s.stateName, s.status])).toEqual([
      ["loud", "failed"],
      ["recovered", "succeeded"],
    ]);
    const loud = run.steps[0]!;
    expect(loud.errorCode).toBe("EXECUTION.OUTPUT_NOT_STORED");
    expect(loud.errorMessage).toContain("could not be stored");
    expect(loud.finishedAt).not.toBeNull();
  } finally {
    await stack.db.$executeRawUnsafe(`DROP TRIGGER refuse_step_output ON "StepRun"`);
  }
});

it("closes a step row as failed when its process cannot start", async () => {
  // A NUL byte cannot be passed in an environment variable, so the sandbox refuses to start it.
  const run = await runToEnd(
    "cannot-start",
    `name: cannot-start
states:
  initial: nul
  nul:
    type: step
    command: |
      printf 'a\\0b'
    on_success: pass
  pass:
    type: step
    command: echo "{{.states.nul.Output}}"
    on_success: done
  done:
    type: terminal
`,
  );
  expect(run.status).toBe("failed");
  expect(run.steps.map((s) => [s.stateName, s.status])).toEqual([
    ["nul", "succeeded"],
    ["pass", "failed"],
  ]);
  expect(run.steps[1]!.errorCode).toMatch(/^[A-Z]+\./);
  expect(run.steps[1]!.finishedAt).not.toBeNull();
});
