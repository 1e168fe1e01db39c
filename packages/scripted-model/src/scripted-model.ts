/**
 * A model endpoint on loopback that plays a script, so agent CLIs can be tested as the real
 * programs they are: it speaks Anthropic Messages, OpenAI Chat Completions and Responses, and
 * Gemini, answers each model request with the next scripted turn (text, tool calls or an HTTP
 * error), checks what the request carried, and records every request. It never hangs: a
 * request past the end of the script, a failed expectation or an unknown endpoint gets an
 * immediate error naming the reason, and lands in `failures` so the test fails on it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicApi } from "./anthropic-api";
import { sendJson, type ApiAdapter, type RequestView } from "./api-adapter";
import { geminiApi } from "./gemini-api";
import { openaiChatApi } from "./openai-chat-api";
import { openaiResponsesApi } from "./openai-responses-api";
import { authOf, redactHeaders, redactPath, type RequestAuth } from "./recording";
import {
  loadScript,
  parseScript,
  type ApiName,
  type ReplySpec,
  type Rule,
  type Script,
  type ScriptInput,
} from "./script";
import { checkExpectation, resolveToolCalls, ruleMatches } from "./turn-checks";
import { modelRepliesIn } from "./model-replies";

const ADAPTERS: ApiAdapter[] = [anthropicApi, openaiChatApi, openaiResponsesApi, geminiApi];

export type AnsweredBy =
  | { kind: "turn"; turn: number }
  | { kind: "rule"; rule: number }
  | { kind: "probe" }
  | { kind: "failure" };

export type RecordedRequest = {
  seq: number;
  at: string;
  method: string;
  /** Path and query, a `key` parameter replaced by its fingerprint. */
  path: string;
  /** Credential headers replaced by fingerprints (see `fingerprint`). */
  headers: Record<string, string>;
  auth: RequestAuth[];
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  api?: ApiName;
  view?: RequestView;
  answeredBy?: AnsweredBy;
  status?: number;
};

export type ScriptFailure = {
  kind: "assertion" | "tool_name" | "exhausted" | "unknown_endpoint" | "bad_request";
  /** `seq` of the request. */
  request: number;
  /** 1-based turn number, when a turn was involved. */
  turn?: number;
  message: string;
};

export type ScriptedModelOptions = {
  /** The script, or the path of a JSON file holding it. */
  script: ScriptInput | Script | string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** One line per request (the CLI prints them). */
  log?: (line: string) => void;
  /**
   * How a model request picks its turn: `sequence` (default), the next turn of the server;
   * `conversation`, the turn after as many as the request's conversation already holds
   * answers of the model, so any number of conversations can play the script side by side
   * (the demo model: every run of the demo workflow hears the same session).
   */
  turnBy?: "sequence" | "conversation";
  /** Whether `requests` and `failures` keep every request (default true); a server that runs for days keeps none. */
  keepRequests?: boolean;
};

export type ScriptedModel = {
  url: string;
  port: number;
  requests: RecordedRequest[];
  failures: ScriptFailure[];
  /** Turns answered so far (failed ones included). */
  readonly turnsPlayed: number;
  readonly turnsLeft: number;
  close(): Promise<void>;
};

const REPLY_ID: Record<ApiName, string> = {
  anthropic: "msg_scripted_",
  "openai-chat": "chatcmpl-scripted-",
  "openai-responses": "resp_scripted_",
  gemini: "scripted-",
};

/** Connectivity probes: Claude Code sends `HEAD /api/hello` unless nonessential traffic is off. */
const PROBE_PATHS = new Set(["/", "/api/hello"]);

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
  529: "overloaded_error",
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

export const startScriptedModel = async (options: ScriptedModelOptions): Promise<ScriptedModel> => {
  const script =
    typeof options.script === "string"
      ? await loadScript(options.script)
      : parseScript(options.script);
  const log = options.log ?? (() => {});
  const requests: RecordedRequest[] = [];
  const failures: ScriptFailure[] = [];
  const ruleUses = script.rules.map(() => 0);
  let nextTurn = 0;
  let seq = 0;
  const keep = options.keepRequests ?? true;

  const fail = (
    res: ServerResponse,
    record: RecordedRequest,
    adapter: ApiAdapter | undefined,
    failure: Omit<ScriptFailure, "request">,
    status = 400,
  ) => {
    const message = `scripted model: ${failure.message}`;
    if (keep) failures.push({ ...failure, message, request: record.seq });
    record.answeredBy = { kind: "failure" };
    record.status = status;
    const type = `scripted_model_${failure.kind}`;
    sendJson(
      res,
      status,
      adapter ? adapter.errorBody(status, type, message) : { error: { type, message } },
    );
    log(`#${record.seq} ${record.method} ${record.path} -> ${status} ${message}`);
  };

  /** Plays a turn or a rule's reply; returns false (having answered) when a tool name does not resolve. */
  const play = async (
    res: ServerResponse,
    record: RecordedRequest,
    adapter: ApiAdapter,
    view: RequestView,
    spec: ReplySpec,
    rawLength: number,
    what: string,
    turn?: number,
  ) => {
    const resolved = resolveToolCalls(
      view,
      spec.toolCalls ?? [],
      (i) => `${adapter.callIdPrefix}scripted_${record.seq}_${i}`,
    );
    if ("problem" in resolved) {
      fail(res, record, adapter, {
        kind: "tool_name",
        ...(turn ? { turn } : {}),
        message: `${what}: ${resolved.problem}`,
      });
      return;
    }
    if (spec.delayMs) await new Promise((r) => setTimeout(r, spec.delayMs));
    if (res.destroyed) return;
    if (spec.error) {
      const { status, headers, body, message } = spec.error;
      const type = ERROR_TYPES[status] ?? "api_error";
      record.status = status;
      sendJson(
        res,
        status,
        body ?? adapter.errorBody(status, type, message ?? `scripted error (${what})`),
        headers,
      );
      log(
        `#${record.seq} ${record.method} ${record.path} ${adapter.name} -> ${what}: HTTP ${status}`,
      );
      return;
    }
    const outputChars =
      (spec.text?.length ?? 0) +
      resolved.calls.reduce((n, c) => n + c.name.length + JSON.stringify(c.arguments).length, 0);
    const usage = {
      inputTokens: spec.usage?.inputTokens ?? script.usage?.inputTokens ?? tokens(rawLength),
      outputTokens: spec.usage?.outputTokens ?? script.usage?.outputTokens ?? tokens(outputChars),
    };
    record.status = 200;
    adapter.reply(res, view, {
      ...(spec.text !== undefined ? { text: spec.text } : {}),
      toolCalls: resolved.calls,
      usage,
      id: `${REPLY_ID[adapter.name]}${record.seq}`,
    });
    const summary = [
      ...(spec.text !== undefined ? [`text ${JSON.stringify(spec.text.slice(0, 60))}`] : []),
      ...resolved.calls.map((c) => `tool ${c.namespace ? `${c.namespace}/` : ""}${c.name}`),
    ].join(", ");
    log(
      `#${record.seq} ${record.method} ${record.path} ${adapter.name}${view.stream ? " stream" : ""} -> ${what}: ${summary}`,
    );
  };

  const answerRule = async (
    res: ServerResponse,
    record: RecordedRequest,
    adapter: ApiAdapter | undefined,
    view: RequestView | undefined,
    rule: Rule,
    index: number,
    rawLength: number,
  ) => {
    record.answeredBy = { kind: "rule", rule: index };
    const what = `rule ${index + 1}`;
    if (rule.json !== undefined || !adapter || !view) {
      if (rule.delayMs) await new Promise((r) => setTimeout(r, rule.delayMs));
      record.status = rule.error?.status ?? rule.status ?? 200;
      sendJson(
        res,
        record.status,
        rule.error?.body ?? rule.json ?? { text: rule.text ?? "" },
        rule.error?.headers,
      );
      log(`#${record.seq} ${record.method} ${record.path} -> ${what}: HTTP ${record.status}`);
      return;
    }
    await play(res, record, adapter, view, rule, rawLength, what);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    const raw = await readBody(req);
    let body: unknown = raw;
    let json = true;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      json = false;
    }
    const record: RecordedRequest = {
      seq: ++seq,
      at: new Date().toISOString(),
      method,
      path: redactPath(url),
      headers: redactHeaders(req.headers),
      auth: authOf(req.headers, url),
      body,
    };
    if (keep) requests.push(record);

    if ((method === "HEAD" || method === "GET") && PROBE_PATHS.has(url.pathname)) {
      record.answeredBy = { kind: "probe" };
      record.status = 200;
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(method === "HEAD" ? undefined : "scripted model\n");
      log(`#${record.seq} ${method} ${record.path} -> 200 (probe)`);
      return;
    }
    let adapter: ApiAdapter | undefined;
    let route;
    for (const a of ADAPTERS) {
      route = a.route(method, url);
      if (route) {
        adapter = a;
        break;
      }
    }
    if (adapter && !json)
      return fail(res, record, adapter, {
        kind: "bad_request",
        message: `the ${adapter.name} request body is not JSON`,
      });
    const view = adapter && route ? adapter.view(body, route, url) : undefined;
    if (adapter) record.api = adapter.name;
    if (view) record.view = view;

    const ruleIndex = script.rules.findIndex(
      (r, i) =>
        (r.times === undefined || ruleUses[i]! < r.times) &&
        ruleMatches(r.match, { method, pathname: url.pathname, view }),
    );
    if (ruleIndex >= 0) {
      ruleUses[ruleIndex]!++;
      return answerRule(
        res,
        record,
        adapter,
        view,
        script.rules[ruleIndex]!,
        ruleIndex,
        raw.length,
      );
    }
    if (!adapter || !view)
      return fail(
        res,
        record,
        undefined,
        {
          kind: "unknown_endpoint",
          message: `no API and no rule answers ${method} ${url.pathname}`,
        },
        404,
      );

    const index =
      options.turnBy === "conversation" ? modelRepliesIn(adapter.name, body) : nextTurn++;
    if (options.turnBy === "conversation") nextTurn = Math.max(nextTurn, index + 1);
    const turn = script.turns[index];
    if (!turn)
      return fail(res, record, adapter, {
        kind: "exhausted",
        message: `the script has no turn left for this ${adapter.name} request (it has ${script.turns.length} turns, this would be turn ${index + 1})`,
      });
    const number = index + 1;
    const what = `turn ${number}${turn.label ? ` (${turn.label})` : ""}`;
    record.answeredBy = { kind: "turn", turn: number };
    const problems = checkExpectation(view, turn.expect);
    if (problems.length)
      return fail(res, record, adapter, {
        kind: "assertion",
        turn: number,
        message: `${what}: ${problems.join("; ")}`,
      });
    await play(res, record, adapter, view, turn, raw.length, what, number);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, { error: { type: "scripted_model_internal", message: String(error) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    failures,
    get turnsPlayed() {
      return Math.min(nextTurn, script.turns.length);
    },
    get turnsLeft() {
      return Math.max(0, script.turns.length - nextTurn);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
