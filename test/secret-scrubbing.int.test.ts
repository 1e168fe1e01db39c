/**
 * Secrets stay out of everything a run leaves behind, in whatever encoding a step prints
 * them: through the real worker, the rows it stores, its log, the spans it exports and what
 * BullMQ keeps of a failed attempt in Redis. And a secret too short to redact is refused
 * when it is saved.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE } from "@switchyard/core/runs";
import { createRun, saveWorkflowVersion } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { startOtlpReceiver } from "./helpers/otlp-receiver";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { waitFor } from "./helpers/worker-process";

const SECRET = "tok-Int3gr4tion-s3cr3t-9f8e";
/** The lane a new secret is open to. */
const LANE = "operator";
let stack: RunStack;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

/**
 * Every 8 characters in a row that only the secret determines, in each form a step may
 * print it: itself, hex in either case, base64 and base64url at each byte alignment.
 */
const traces = (() => {
  const bytes = Buffer.from(SECRET);
  const forms = [SECRET, bytes.toString("hex"), bytes.toString("hex").toUpperCase()];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [
    ...new Set(
      forms.flatMap((f) => Array.from({ length: f.length - 7 }, (_, i) => f.slice(i, i + 8))),
    ),
  ];
})();

const expectNoTrace = (text: string, what: string) => {
  const flat = text.replace(/\\r|\\n|\r|\n/g, "");
  for (const trace of traces) expect(flat.includes(trace), `${what} holds "${trace}"`).toBe(false);
};

const storedRows = async (runId: string) =>
  JSON.stringify(
    [
      await stack.db.run.findMany({ where: { id: runId } }),
      await stack.db.stepRun.findMany({ where: { runId } }),
      await stack.db.runEvent.findMany({ where: { runId } }),
    ],
    (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
  );

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await openRunStack({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
  await caller().variables.set({ name: "API_TOKEN", value: SECRET, secret: true });
});
afterAll(async () => {
  await closeRunStack(stack);
  await receiver?.close();
});

it("refuses to store a secret too short to redact, saying the minimum", async () => {
  await expect(
    caller().variables.set({ name: "PIN", value: "1000", secret: true }),
  ).rejects.toMatchObject({
    code: "BAD_REQUEST",
    message: expect.stringContaining("at least 8 characters") as unknown,
    cause: { code: "USER.SECRET_TOO_SHORT", location: { path: "value" } },
  });
  expect((await caller().variables.list()).map((v) => v.name)).toEqual(["API_TOKEN"]);
  await caller().variables.set({ name: "PORT", value: "1000", secret: false });
  await caller().variables.delete({ name: "PORT" });
});

it("keeps a secret that a step prints base64- or hex-encoded out of every stored row", async () => {
  const version = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    lane: LANE,
    name: "prints-encoded",
    files: {
      "workflow.yaml": `name: prints-encoded
env:
  - API_TOKEN
states:
  initial: encode
  encode:
    type: step
    command: |
      printf 'user:%s' "$API_TOKEN" | base64
      printf 'u:%s' "$API_TOKEN" | base64
      printf 'us:%s' "$API_TOKEN" | basenc --base64url
      printf '%s%s' "$(printf 'p%.0s' $(seq 60))" "$API_TOKEN" | base64
      printf '%s' "$API_TOKEN" | od -An -tx1 | tr -d ' \\n'; echo
      printf 'x%s' "$API_TOKEN" | od -An -tx1 | tr -d ' \\n' | tr a-f A-F; echo
      printf '%s' "$API_TOKEN" | base64 >&2
      exit 3
    capture:
      stdout: printed
    on_failure: report
  report:
    type: step
    command: 'echo "{{.context.printed}}"'
    on_success: done
  done:
    type: terminal
    status: failure
`,
    },
  });
  const { id } = await caller().runs.start({ workflowId: version.workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`);
  expect(run.steps.map((s) => s.stateName)).toEqual(["encode", "report"]);
  const [encode, report] = run.steps;
  expect(encode!.exitCode).toBe(3);
  // The step did print each form, and each was redacted where it stood.
  expect(encode!.stdout).toContain("dXNlcj[REDACTED]");
  expect(encode!.stdout.match(/\[REDACTED\]/g)!.length).toBeGreaterThanOrEqual(6);
  expect(encode!.stderr).toContain("[REDACTED]");
  expect(report!.stdout).toContain("dXNlcj[REDACTED]");
  expectNoTrace(await storedRows(id), "the stored rows");
  expectNoTrace(encode!.stdout + encode!.stderr + report!.stdout, "the step output");
  expectNoTrace(stack.worker.logs(), "the worker's log");
});

it("scrubs errors that carry the secret from the failed attempt in Redis, the log, the spans and the stored error", async () => {
  // Database errors quote values (a bad input, a failing row): here triggers raise ones
  // whose text carries the secret, as given and encoded. The checkpoint that records the
  // failed step is refused, which fails the run with that error; the first attempt to
  // store the failed run is refused too, which fails the job's attempt: BullMQ keeps its
  // reason and stack in Redis and retries; the retry resumes the run, meets the first
  // refusal again and stores the run as failed.
  const inError = [
    SECRET,
    Buffer.from(`user:${SECRET}`).toString("base64"),
    Buffer.from(SECRET).toString("hex"),
  ].join(" / ");
  const statements = [
    `CREATE SEQUENCE finish_refusals`,
    `CREATE FUNCTION refuse_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF NEW.checkpoint -> 'results' -> 'refused-save' IS NOT NULL THEN RAISE EXCEPTION 'checkpoint refused: ${inError}'; END IF;
       RETURN NEW;
     END $$`,
    `CREATE FUNCTION refuse_first_finish() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF NEW.status = 'failed' AND nextval('finish_refusals') = 1 THEN RAISE EXCEPTION 'run row refused: ${inError}'; END IF;
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER refuse_checkpoint BEFORE UPDATE OF checkpoint ON "Run" FOR EACH ROW EXECUTE FUNCTION refuse_checkpoint()`,
    `CREATE TRIGGER refuse_first_finish BEFORE UPDATE OF status ON "Run" FOR EACH ROW EXECUTE FUNCTION refuse_first_finish()`,
  ];
  for (const sql of statements) await stack.db.$executeRawUnsafe(sql);
  const version = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    lane: LANE,
    name: "error-carries-secret",
    files: {
      "workflow.yaml": `name: error-carries-secret
env:
  - API_TOKEN
states:
  initial: refused-save
  refused-save:
    type: step
    command: 'printf "user:%s" "$API_TOKEN" | base64 >&2; exit 3'
    on_failure: done
  done:
    type: terminal
    status: failure
`,
    },
  });
  const row = await createRun(stack.db, {
    teamId: stack.teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: LANE,
    trigger: "api",
    startedById: stack.adminId,
  });
  await stack.queue.add(
    "run",
    { runId: row.id, teamId: stack.teamId },
    { jobId: row.id, attempts: 2, backoff: { type: "fixed", delay: 200 } },
  );
  const jobKey = `${stack.prefix}:${RUN_QUEUE}:${row.id}`;

  const failedReason = await waitFor(
    async () => (await stack.redis.hget(jobKey, "failedReason")) || undefined,
    30_000,
    "the first attempt to fail",
  );
  expect(failedReason).toContain("run row refused: [REDACTED] / dXNlcj[REDACTED] / [REDACTED]");
  expectNoTrace(JSON.stringify(await stack.redis.hgetall(jobKey)), "the failed attempt in Redis");
  const run = await runEnded(() => caller().runs.get({ id: row.id }), `run ${row.id}`);
  expect(run.status).toBe("failed");
  expect(run.errorMessage).toContain(
    "checkpoint refused: [REDACTED] / dXNlcj[REDACTED] / [REDACTED]",
  );
  const job = await stack.redis.hgetall(jobKey);
  expect(job.stacktrace).toContain("run row refused");
  expectNoTrace(JSON.stringify(job), "the job in Redis");
  expectNoTrace(await storedRows(row.id), "the stored rows");
  expect(stack.worker.logs()).toContain("run row refused: [REDACTED]");
  expectNoTrace(stack.worker.logs(), "the worker's log");

  await stack.worker.stop(); // flushes the span exporter
  const failing = receiver.spans.filter((s) =>
    / refused: \[REDACTED\]/.test(s.status?.message ?? ""),
  );
  expect(failing.length).toBeGreaterThanOrEqual(2); // the run span of each attempt
  expectNoTrace(JSON.stringify(receiver.spans), "the exported spans");
});
