/**
 * Record ingest: N tool calls as an agent step's proxy reports them (a `record` and a `span`
 * line each, as call-reporter.ts sends them) written to the step channel's socket, through
 * the worker's whole path (startStepChannel: line parsing, message check, scrubbing; the
 * worker's ToolCallRowWriter: scrubbing again, rows, batched inserts) until `flush` has
 * stored them all. Against a plain bulk insert of the very same rows in the same database:
 * one `INSERT … SELECT FROM unnest($1::text[], …)` per 10,000 rows through node-postgres
 * (Prisma cannot COPY and no COPY stream client is installed). Rounds take turns; the best
 * round of each is kept. `SWITCHYARD_BENCH_QUICK=1` sends 5,000 calls instead of 50,000.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createConnection, type Socket } from "node:net";
import pg from "pg";
import { createEventBus, type ChannelEvents } from "@switchyard/core/events";
import {
  STEP_CHANNEL_VERSION,
  startStepChannel,
  type SpanRecord,
  type ToolCallRecord,
} from "@switchyard/core/mcp";
import { Scrubber } from "@switchyard/core/secrets";
import {
  createDb,
  createRun,
  saveWorkflowVersion,
  startStepRun,
  type Db,
  type SpanRow,
  type ToolCallRow,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { createLogger } from "../apps/worker/src/logger";
import { spanRow, toolCallRowWriter, toolCallRow } from "../apps/worker/src/tool-call-rows";
import type { Sample } from "./measure";

const QUICK = process.env.SWITCHYARD_BENCH_QUICK === "1";
const CALLS = QUICK ? 5_000 : 50_000;
const ROUNDS = 2;
const BASELINE_CHUNK = 10_000;
/** A credential the step holds: it appears in some arguments and results and is scrubbed on the way. */
const SECRET = "ghp_" + "Zx7Qm2Lk9Pw4Rt6Yv8Nb1Cd3Fg5Hj0Ks";
const TOOLS = ["Read", "Grep", "Bash", "Edit", "Glob", "search_issues"] as const;

/**
 * CPU seconds so far of this process and of the Postgres connections to `database` (read
 * from /proc, so only with the server on this machine; 0 otherwise): what a round costs
 * whatever else the machine runs, unlike its wall time.
 */
const cpuSeconds = async (database: string) => {
  const postgres = new Map<string, number>();
  for (const pid of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // Backends serving the database only: not autovacuum, which visits it when it likes.
      const title = await readFile(`/proc/${pid}/cmdline`, "utf8");
      if (!title.includes(database) || title.includes("autovacuum")) continue;
      const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
      postgres.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // gone meanwhile
    }
  }
  const own = process.cpuUsage();
  return { worker: (own.user + own.system) / 1e6, postgres };
};

type Cost = { ms: number; worker: number; postgres: number };
const measured = async <T>(database: string, run: () => Promise<T>): Promise<Cost> => {
  const before = await cpuSeconds(database);
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const after = await cpuSeconds(database);
  // A connection that closed meanwhile is not counted; one opened meanwhile counts whole.
  let postgres = 0;
  for (const [pid, seconds] of after.postgres)
    postgres += seconds - (before.postgres.get(pid) ?? 0);
  return { ms, worker: after.worker - before.worker, postgres };
};
const best = (a: Cost | undefined, b: Cost) => (a && a.ms <= b.ms ? a : b);
const perCall = (seconds: number) => `${((seconds / CALLS) * 1e6).toFixed(0)} µs`;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** What the proxy reports for call `i`: arguments and result of a few hundred bytes each. */
const callOf = (
  i: number,
  traceId: string,
  t0: number,
): { record: ToolCallRecord; span: SpanRecord } => {
  const tool = TOOLS[i % TOOLS.length]!;
  const connector = tool === "search_issues" ? "github" : "builtin";
  const startedAtMs = t0 + i;
  const spanId = hex(8);
  const args =
    tool === "Bash"
      ? {
          command: `curl -s -H "Authorization: token ${SECRET}" https://api.github.com/repos/acme/widgets/issues?page=${i}`,
          timeout_ms: 30_000,
          description: "list the open issues of the widgets repository",
        }
      : {
          path: `src/components/module-${i % 97}/index.ts`,
          pattern: "export (const|function) [A-Za-z]+",
          context_lines: 3,
          case_sensitive: false,
          glob: "**/*.{ts,tsx}",
        };
  const text = Array.from(
    { length: 6 },
    (_, k) =>
      `src/components/module-${(i + k) % 97}/index.ts:${k * 7 + 1}: export const handler${k} = (input: Input) => run(input, ${k});`,
  ).join("\n");
  const record: ToolCallRecord = {
    type: "tool_call",
    tool,
    source: connector,
    fidelity: "proxy",
    arguments: args,
    result: {
      content: [{ type: "text", text: i % 50 === 0 ? `${text}\ntoken=${SECRET}` : text }],
      isError: false,
    },
    is_error: i % 40 === 0,
    error_type: i % 40 === 0 ? "tool_error" : null,
    started_at: new Date(startedAtMs).toISOString(),
    duration_ms: 3 + (i % 17),
    jsonrpc_id: i + 1,
    protocol_version: "2025-06-18",
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: null,
  };
  const span: SpanRecord = {
    name: `tools/call ${tool}`,
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: null,
    kind: "server",
    start_time_unix_nano: `${BigInt(startedAtMs) * 1_000_000n}`,
    end_time_unix_nano: `${BigInt(startedAtMs + record.duration_ms) * 1_000_000n}`,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": tool,
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-06-18",
      "jsonrpc.request.id": String(i + 1),
      "network.transport": "pipe",
      "switchyard.tool.source": connector,
    },
    status: record.is_error ? "error" : "ok",
  };
  return { record, span };
};

/** The calls of one round, as the exact bytes the proxy writes to the channel (each record asks to be confirmed once stored). */
const roundOf = (traceId: string) => {
  const t0 = Date.now();
  const calls = Array.from({ length: CALLS }, (_, i) => callOf(i, traceId, t0));
  const lines = calls.map(
    ({ record, span }, i) =>
      `${JSON.stringify({ type: "record", record, ack: i + 1 })}\n${JSON.stringify({ type: "span", span })}\n`,
  );
  return { calls, bytes: Buffer.from(lines.join("")) };
};

/** Connects to the channel as the proxy does (hello, then the worker's welcome). */
const connectAsProxy = (path: string, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = createConnection({ path });
    socket.once("error", reject);
    socket.once("connect", () =>
      socket.write(
        `${JSON.stringify({ type: "hello", v: STEP_CHANNEL_VERSION, token, pid: process.pid })}\n`,
      ),
    );
    socket.once("data", (chunk) =>
      chunk.toString().includes('"welcome"')
        ? resolve(socket)
        : reject(new Error(`no welcome: ${chunk.toString()}`)),
    );
  });

/** The worker's path: channel → writer → Postgres, from the first byte sent until flush returns. */
const ingest = async (
  db: Db,
  ids: { teamId: string; runId: string; stepRunId: string },
  bytes: Buffer,
) => {
  const scrubber = new Scrubber().add(SECRET);
  const writer = toolCallRowWriter({
    db,
    log: createLogger("error"),
    scrubber,
    outageMs: 60_000,
    ...ids,
  });
  let records = 0;
  let allIn!: () => void;
  const arrived = new Promise<void>((resolve) => (allIn = resolve));
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (record) => {
    void writer.record(record);
    if (++records === CALLS) allIn();
  });
  events.subscribe("span.ended", writer.span);
  const channel = await startStepChannel({
    host: {
      listTools: async () => [],
      callTool: async () => ({ content: [] }),
      close: async () => undefined,
    },
    gate: { allows: () => false },
    lane: "",
    catalog: [],
    secrets: [SECRET],
    events,
  });
  const socket = await connectAsProxy(channel.path, channel.token);
  try {
    const t0 = performance.now();
    socket.write(bytes);
    await arrived;
    await writer.flush();
    return performance.now() - t0;
  } finally {
    socket.destroy();
    await channel.close();
  }
};

/** The baseline: the same rows in one multi-row statement per chunk, straight through node-postgres. */
const bulkInsert = async (
  pool: pg.Pool,
  teamId: string,
  runId: string,
  calls: ToolCallRow[],
  spans: SpanRow[],
) => {
  const t0 = performance.now();
  const client = await pool.connect();
  try {
    for (let at = 0; at < calls.length; at += BASELINE_CHUNK) {
      const rows = calls.slice(at, at + BASELINE_CHUNK);
      await client.query(
        `INSERT INTO "ToolCall" ("id","teamId","runId","stepRunId","toolName","source","connectorId","fidelity","arguments","result","resultCut","isError","errorType","startedAt","durationMs","traceId","spanId")
         SELECT gen_random_uuid()::text, $1, $2, s, t, src, c, f::"ToolFidelity", a, r, NULL, e, et, st, d, tr, sp
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::jsonb[], $10::boolean[], $11::text[], $12::timestamp(3)[], $13::int[], $14::text[], $15::text[])
             AS u(s, t, src, c, f, a, r, e, et, st, d, tr, sp)`,
        [
          teamId,
          runId,
          rows.map((r) => r.stepRunId),
          rows.map((r) => r.toolName),
          rows.map((r) => r.source),
          rows.map((r) => r.connectorId ?? null),
          rows.map((r) => r.fidelity),
          rows.map((r) => JSON.stringify(r.arguments ?? null)),
          rows.map((r) => JSON.stringify(r.result ?? null)),
          rows.map((r) => r.isError),
          rows.map((r) => r.errorType ?? null),
          rows.map((r) => r.startedAt.toISOString()),
          rows.map((r) => Math.round(r.durationMs)),
          rows.map((r) => r.traceId ?? null),
          rows.map((r) => r.spanId ?? null),
        ],
      );
    }
    for (let at = 0; at < spans.length; at += BASELINE_CHUNK) {
      const rows = spans.slice(at, at + BASELINE_CHUNK);
      await client.query(
        `INSERT INTO "Span" ("id","teamId","runId","traceId","spanId","parentSpanId","name","kind","status","attributes","startTime","endTime")
         SELECT gen_random_uuid()::text, $1, $2, tr, sp, p, n, k, st, a, s, e
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::timestamp(3)[], $11::timestamp(3)[])
             AS u(tr, sp, p, n, k, st, a, s, e)
         ON CONFLICT ("traceId","spanId") DO NOTHING`,
        [
          teamId,
          runId,
          rows.map((s) => s.traceId),
          rows.map((s) => s.spanId),
          rows.map((s) => s.parentSpanId ?? null),
          rows.map((s) => s.name),
          rows.map((s) => s.kind),
          rows.map((s) => s.status),
          rows.map((s) => JSON.stringify(s.attributes)),
          rows.map((s) => s.startTime.toISOString()),
          rows.map((s) => s.endTime?.toISOString() ?? null),
        ],
      );
    }
  } finally {
    client.release();
  }
  return performance.now() - t0;
};

export const benchIngest = async (): Promise<Sample[]> => {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const pool = new pg.Pool({ connectionString: database.url, max: 1, idleTimeoutMillis: 0 });
  try {
    const { team } = await seed(db, { adminEmail: "bench@local", adminPassword: "bench-password" });
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-ingest",
      files: {
        "workflow.yaml":
          "name: bench-ingest\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n",
      },
    });
    const run = await createRun(db, {
      teamId: team.id,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
    });
    const stepRun = (attempt: number) =>
      startStepRun(db, {
        teamId: team.id,
        runId: run.id,
        stateName: "s",
        stepType: "agent",
        attempt,
        path: { workflow: "bench-ingest", key: "s", loop: [], calls: [] },
      });

    let product: Cost | undefined;
    let baseline: Cost | undefined;
    let attempt = 1;
    for (let round = 0; round < ROUNDS; round++) {
      const mine = roundOf(hex(16));
      const step = await stepRun(attempt++);
      let wall = 0;
      const cost = await measured(
        database.name,
        async () =>
          (wall = await ingest(
            db,
            { teamId: team.id, runId: run.id, stepRunId: step.id },
            mine.bytes,
          )),
      );
      product = best(product, { ...cost, ms: wall });
      const stored = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "ToolCall" WHERE "teamId" = $1 AND "stepRunId" = $2`,
        [team.id, step.id],
      );
      if (stored.rows[0]?.n !== CALLS)
        throw new Error(`the writer stored ${stored.rows[0]?.n} of ${CALLS} tool calls`);

      // The baseline writes the rows the writer made, scrubbed alike, for a step of its own.
      const theirs = roundOf(hex(16));
      const other = await stepRun(attempt++);
      const scrubber = new Scrubber().add(SECRET);
      const rows = theirs.calls.map(({ record }) =>
        toolCallRow(other.id, scrubber.scrubValue(record)),
      );
      const spans = theirs.calls.map(({ span }) => spanRow(scrubber.scrubValue(span)));
      let bulkWall = 0;
      const bulkCost = await measured(
        database.name,
        async () => (bulkWall = await bulkInsert(pool, team.id, run.id, rows, spans)),
      );
      baseline = best(baseline, { ...bulkCost, ms: bulkWall });
    }
    const perSecond = (ms: number) => (CALLS / ms) * 1000;
    const p = product!;
    const b = baseline!;
    return [
      {
        name: `record ingest, ${CALLS} calls (records+spans/s)`,
        unit: "/s",
        // Figures are rates: the ratio printed is product/baseline, so below 1 means slower.
        baseline: perSecond(b.ms),
        subject: perSecond(p.ms),
        note: `unnest() INSERT via pg, one connection, ${BASELINE_CHUNK} rows a statement; rates (above 1x is faster); time ${(p.ms / b.ms).toFixed(2)}x; best of ${ROUNDS}`,
      },
      {
        name: "record ingest, CPU a call: worker+Postgres",
        unit: "µs",
        baseline: ((b.worker + b.postgres) / CALLS) * 1e6,
        subject: ((p.worker + p.postgres) / CALLS) * 1e6,
        note: `same rounds; node ${perCall(p.worker)} vs ${perCall(b.worker)}, Postgres ${perCall(p.postgres)} vs ${perCall(b.postgres)}`,
      },
    ];
  } finally {
    await pool.end();
    await db.$disconnect();
    await database.drop();
  }
};
