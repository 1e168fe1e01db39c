/**
 * A secret team variable, used by a run through the real worker (in a step's env, printed as
 * is and encoded, written to a file in the workspace, read back by the next step and passed
 * on through the run's context), is found nowhere afterwards: in no text or JSON column of
 * any table of the test's database (the sealed values are bytea ciphertext, not scanned), in
 * no key or value under the test's queue prefix in Redis, in the worker's log, in the
 * workspaces folder, nor in what the API answers about the run (runs.get, runs.events,
 * runs.graph, runs.list and the logs download).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { saveWorkflowVersion } from "@switchyard/db";
import { runLogResponse } from "../apps/web/src/server/runs/run-log";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";

const SECRET = "scan-S3cr3t-v4lue-7c1d2e";
let stack: RunStack;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

/** The secret, its hex (either case) and its base64 (and base64url) at each byte alignment. */
const forms = (() => {
  const bytes = Buffer.from(SECRET);
  const out = [SECRET, bytes.toString("hex"), bytes.toString("hex").toUpperCase()];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...new Set(out)];
})();

const hits = (text: string) => forms.filter((f) => text.replace(/\\r|\\n|\r|\n/g, "").includes(f));

beforeAll(async () => {
  stack = await openRunStack();
  await caller().variables.set({ name: "API_TOKEN", value: SECRET, secret: true });
});
afterAll(async () => {
  await closeRunStack(stack);
});

const WORKFLOW = `name: secret-scan
env:
  - API_TOKEN
states:
  initial: write
  write:
    type: step
    command: |
      echo "token=$API_TOKEN"
      printf '%s' "$API_TOKEN" > token.txt
      printf '%s' "$API_TOKEN" | base64
      printf '%s' "$API_TOKEN" | od -An -tx1 | tr -d ' \\n'; echo
    capture:
      stdout: printed
    on_success: read
  read:
    type: step
    command: |
      echo "from file: $(cat token.txt)"
      echo "from context: {{.context.printed}}"
    on_success: done
  done:
    type: terminal
`;

/** Every text, varchar and json column of every table in the public schema: [table, column] where a form of the secret occurs. */
const databaseHits = async () => {
  const columns = await stack.db.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
    `SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND (data_type IN ('text', 'character varying', 'json', 'jsonb') OR udt_name IN ('_text', '_varchar', '_jsonb'))`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const patterns = forms.map((f) => `%${f}%`);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const rows = await stack.db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "${table_name}" WHERE replace(replace("${column_name}"::text, '\\n', ''), E'\\n', '') LIKE ANY($1::text[])`,
      patterns,
    );
    if (Number(rows[0]!.n) > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
};

/** Every key under the test's prefix, with its value whatever its type. */
const redisDump = async () => {
  const out: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await stack.redis.scan(cursor, "MATCH", `${stack.prefix}*`, "COUNT", 500);
    cursor = next;
    for (const key of keys) {
      const type = await stack.redis.type(key);
      const value =
        type === "string"
          ? await stack.redis.get(key)
          : type === "hash"
            ? await stack.redis.hgetall(key)
            : type === "list"
              ? await stack.redis.lrange(key, 0, -1)
              : type === "set"
                ? await stack.redis.smembers(key)
                : type === "zset"
                  ? await stack.redis.zrange(key, "0", "-1", "WITHSCORES")
                  : type === "stream"
                    ? await stack.redis.xrange(key, "-", "+")
                    : null;
      out.push(JSON.stringify({ key, type, value }));
    }
  } while (cursor !== "0");
  return out;
};

const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? filesUnder(path.join(dir, e.name))
        : Promise.resolve([path.join(dir, e.name)]),
    ),
  );
  return nested.flat();
};

it("leaves no trace of a secret a run used in the database, Redis, the worker's log, the workspaces or the API's answers", async () => {
  const version = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    lane: "operator",
    name: "secret-scan",
    files: { "workflow.yaml": WORKFLOW },
  });
  const { id } = await caller().runs.start({ workflowId: version.workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`);
  expect(run.status).toBe("succeeded");
  const [write, read] = run.steps;
  // The steps did print it (redacted where it stood), and the file carried it between steps.
  expect(write!.stdout).toContain("token=[REDACTED]");
  expect(read!.stdout).toContain("from file: [REDACTED]");
  expect(read!.stdout).toContain("from context: ");

  const dbHits = await databaseHits();
  const redisHits = (await redisDump()).filter((entry) => hits(entry).length > 0);
  expect((await redisDump()).length).toBeGreaterThan(0);
  const logHits = hits(stack.worker.logs());
  const workspaceHits: string[] = [];
  for (const file of await filesUnder(stack.worker.workspaces)) {
    const text = await readFile(file).then(
      (b) => b.toString("utf8"),
      () => "",
    );
    if (hits(text).length > 0) workspaceHits.push(path.relative(stack.worker.workspaces, file));
  }
  const c = caller();
  const answers = {
    "runs.get": JSON.stringify(await c.runs.get({ id })),
    "runs.events": JSON.stringify(await c.runs.events({ id })),
    "runs.graph": JSON.stringify(await c.runs.graph({ id })),
    "runs.list": JSON.stringify(await c.runs.list({})),
    "logs download": await (await runLogResponse(stack.db, stack.teamId, id)).text(),
  };
  const answerHits = Object.entries(answers)
    .filter(([, text]) => hits(text).length > 0)
    .map(([name]) => name);
  expect({ dbHits, redisHits, logHits, workspaceHits, answerHits }).toEqual({
    dbHits: [],
    redisHits: [],
    logHits: [],
    workspaceHits: [],
    answerHits: [],
  });
  // The logs download did carry the run's output (so scanning it means something).
  expect(answers["logs download"]).toContain("token=[REDACTED]");
}, 90_000);
