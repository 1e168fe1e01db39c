/**
 * The openai_compatible agent driver. The worker is the MCP client of the step's sandboxed
 * `switchyard mcp-serve` and drives the Chat Completions tools[] loop itself: offer the
 * proxy's tools (filtered by `allowed_tools`, re-listed when the proxy says the list changed),
 * run each tool call through the proxy, hand the results back, until the model answers
 * without calling a tool or the turn limit is reached. No tool runs in the worker; a failing
 * tool is the model's problem to solve, never the end of the step. The team's key goes only
 * into the Authorization header: every event, error and result passes the key's scrubber.
 */
import type { FetchLike } from "../../egress/egress-fetch";
import type { ModelPrice } from "../../gateway/gateway-types";
import { costOf } from "../../gateway/price-table";
import { AppError, isAppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentRequest, AgentResult } from "../../workflow/model/engine-ports";
import { readChatOptions } from "./chat-options";
import { checkBaseUrl } from "./check-base-url";
import { scrubEvent, type AgentStepEvent } from "../agent-events";
import { outcomeFields } from "../agent-outcome";
import { DEFAULT_CHAT_LIMITS, postChatCompletion, type ChatLimits } from "./post-chat-completion";
import type { ChatTurn } from "./read-chat-response";
import { abortReason } from "./retry-after";
import { parseToolArguments, runToolCall } from "./run-tool-call";
import type { ProxyTool, ToolProxy } from "./tool-proxy";
import { tracerOrNone, type StepTracer } from "../step-tracer";
import type { BudgetMeter } from "../../governance/budget-meter";

export type OpenAiCompatibleLimits = ChatLimits & {
  /** Model requests per step; `options.max_turns` may lower it. */
  maxTurns: number;
};

export const DEFAULT_OPENAI_COMPATIBLE_LIMITS: OpenAiCompatibleLimits = {
  ...DEFAULT_CHAT_LIMITS,
  maxTurns: 25,
};

export type RunOpenAiCompatibleInput = {
  /** The step: prompt, systemPrompt, options (base_url, model, ...), timeoutMs, signal. */
  request: AgentRequest;
  /** The step's proxy, connected (see toolProxyFromClient). */
  tools: ToolProxy;
  /** The team's allowed model endpoints; `options.base_url` must fall under one. */
  allowedEndpoints: readonly string[];
  /** The team's key for that endpoint; none for endpoints without auth. */
  apiKey?: string;
  onEvent?: (event: AgentStepEvent) => void;
  limits?: Partial<OpenAiCompatibleLimits>;
  /** Other values to keep out of events and results (the step's secrets). */
  secrets?: readonly string[];
  random?: () => number;
  /** The egress fetch the worker reaches model endpoints with (see post-chat-completion.ts). */
  fetch?: FetchLike;
  /** Opens a `chat` span per model request and an `execute_tool` span per tool call. */
  tracer?: StepTracer;
  /** The model's price, for each `chat` span's cost. */
  price?: ModelPrice;
  /**
   * The step's budgets: asked before each model request (a refusal fails the step with
   * USER.BUDGET.EXCEEDED) and charged with each request's tokens and cost.
   */
  budget?: Pick<BudgetMeter, "admitModel" | "chargeModel">;
  /**
   * Aborted when the step must stop and wait for a person (a held tool call past its hold
   * limit): the call in flight is given up and the loop returns its conversation as
   * `suspended`, to go on later from there (`resume`), on any worker.
   */
  suspend?: AbortSignal;
  /** A suspended step's conversation: its calls still to make run first, then the loop goes on. */
  resume?: OpenAiSession;
  /**
   * An earlier step's conversation this step continues (`continue_from`): its messages come
   * first, then this step's prompt as the next user message (its system prompt is the earlier one's).
   */
  history?: ChatMessage[];
  /** Give back the whole conversation on success (`messages`), for a later step to continue. */
  keepMessages?: boolean;
  /** A conversation's turn: on success the conversation is handed back (`chatKept`) for the next turn. */
  keep?: boolean;
};

/**
 * Where a suspended openai_compatible step stood: the messages so far, the tool calls of the
 * last turn not yet answered (the held one first), the turns and tokens counted, the text.
 * Stored sealed with the run (it holds what the tools returned).
 */
export type OpenAiSession = {
  messages: ChatMessage[];
  pending: { id: string; name: string; arguments: string }[];
  turns: number;
  usage: { input: number; output: number; estimated: boolean };
  lastText: string;
};

export type OpenAiCompatibleResult = Omit<AgentResult, "suspended"> & {
  status: "success" | "failure" | "cancelled" | "suspended";
  /** Set when `suspend` stopped the step: where it goes on from. */
  session?: OpenAiSession;
  /** Set on success when `keep` asked: the conversation with the model's last reply in it. */
  chatKept?: OpenAiSession;
  /** Whether trying the step again may help (the endpoint was unavailable). */
  retryable?: boolean;
  /** Model requests made. */
  turns: number;
  /** With `keepMessages`, on success: every message of the conversation, the last answer included. */
  messages?: ChatMessage[];
};

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: {
        id: string;
        type: "function";
        function: { name: string; arguments: string };
      }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

type ChatTool = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

const estimate = (chars: number) => Math.ceil(chars / 4);

/** A span's `error.type`: the AppError's code, else the conventions' fallback. */
const errorTypeOf = (error: unknown) => (isAppError(error) ? error.code : "_OTHER");

const loopGuard = (message: string) => new AppError(CODES.INFINITE_LOOP_GUARD, message);

/**
 * Runs one agent step. Bad options (`base_url` not allowed, no `model`) throw an AppError
 * before any request; everything after is in the result: success, failure with its code, or
 * cancelled, with the tokens counted so far.
 */
export const runOpenAiCompatible = async (
  input: RunOpenAiCompatibleInput,
): Promise<OpenAiCompatibleResult> => {
  const { request, tools } = input;
  const checked = checkBaseUrl(request.options.base_url, input.allowedEndpoints);
  if (!checked.ok) throw checked.error;
  const span = tracerOrNone(input.tracer);
  const options = readChatOptions(request.options);
  const limits = { ...DEFAULT_OPENAI_COMPATIBLE_LIMITS, ...input.limits };
  const maxTurns = Math.min(options.maxTurns ?? limits.maxTurns, limits.maxTurns);

  const scrubber = new Scrubber().add(input.apiKey);
  for (const secret of input.secrets ?? []) scrubber.add(secret);
  const scrub = (text: string) => scrubber.scrub(text);
  const emit = (event: AgentStepEvent) => input.onEvent?.(scrubEvent(event, scrub));

  const stop = new AbortController();
  const cancel = () => stop.abort(new AppError("EXECUTION.CANCELLED", "the step was cancelled"));
  if (request.signal.aborted) cancel();
  else request.signal.addEventListener("abort", cancel, { once: true });
  const deadline =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            stop.abort(
              new AppError(
                "EXECUTION.TIMEOUT",
                `the step did not finish within ${request.timeoutMs! / 1000} s`,
              ),
            ),
          request.timeoutMs,
        );
  let listChanged = true;
  const unsubscribe = tools.onToolsChanged(() => void (listChanged = true));

  const usage = input.resume
    ? { ...input.resume.usage }
    : { input: 0, output: 0, estimated: false };
  let turns = input.resume?.turns ?? 0;
  let lastText = input.resume?.lastText ?? "";
  // Suspending gives up the call in flight: the loop then returns where it stood.
  const suspended = "EXECUTION.SUSPENDED";
  const onSuspend = () => stop.abort(new AppError("EXECUTION.AGENT_FAILED", suspended));
  if (input.suspend?.aborted) onSuspend();
  else input.suspend?.addEventListener("abort", onSuspend, { once: true });
  let standing: OpenAiSession | undefined;
  const result = (
    status: OpenAiCompatibleResult["status"],
    error?: AppError,
  ): OpenAiCompatibleResult => ({
    status,
    output: scrub(lastText),
    turns,
    tokensInput: usage.input,
    tokensOutput: usage.output,
    tokensUsed: usage.input + usage.output,
    ...(usage.estimated ? { tokensEstimated: true } : {}),
    ...(status === "suspended" ? {} : outcomeFields(status, error, scrub)),
  });

  const listOffered = async (): Promise<ProxyTool[]> => {
    let listed: ProxyTool[];
    try {
      listed = await tools.listTools(stop.signal);
    } catch (error) {
      if (stop.signal.aborted) throw abortReason(stop.signal);
      throw new AppError(
        CODES.MCP_PROXY_UNAVAILABLE,
        `the step's MCP proxy did not list its tools: ${scrub((error as Error).message ?? String(error))}`,
      );
    }
    return options.allowedTools
      ? listed.filter((t) => options.allowedTools!.has(t.name.toLowerCase()))
      : listed;
  };

  const count = (turn: ChatTurn, body: Record<string, unknown>) => {
    const u = turn.usage ?? {
      inputTokens: estimate(JSON.stringify(body).length),
      outputTokens: estimate(
        turn.text.length +
          turn.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0),
      ),
    };
    if (!turn.usage) usage.estimated = true;
    usage.input += u.inputTokens;
    usage.output += u.outputTokens;
    emit({
      type: "usage",
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      estimated: !turn.usage,
    });
    return u;
  };

  try {
    const messages: ChatMessage[] = input.resume ? [...input.resume.messages] : [];
    if (!input.resume) {
      if (input.history) messages.push(...input.history);
      else if (request.systemPrompt)
        messages.push({ role: "system", content: request.systemPrompt });
      messages.push({ role: "user", content: request.prompt });
    }
    let offered: ProxyTool[] = [];
    /** Runs a turn's tool calls in order, each answer a message; `standing` says where it is. */
    const callTools = async (calls: OpenAiSession["pending"]) => {
      const context = {
        tools,
        offered: new Set(offered.map((t) => t.name)),
        ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
        signal: stop.signal,
      };
      for (const [i, call] of calls.entries()) {
        standing = {
          messages: [...messages],
          pending: calls.slice(i),
          turns,
          usage: { ...usage },
          lastText,
        };
        const args = parseToolArguments(call.arguments);
        emit({ type: "tool_use", id: call.id, name: call.name, arguments: args.value });
        const tool = span(`execute_tool ${call.name}`, "internal", {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": call.name,
          "gen_ai.tool.call.id": call.id,
          "gen_ai.tool.type": "function",
          // The MCP client side of the call, folded into the tool span as the MCP conventions ask.
          "mcp.method.name": "tools/call",
          "network.transport": "pipe",
        });
        const outcome = await runToolCall(
          tool.traceparent ? { ...context, meta: { traceparent: tool.traceparent } } : context,
          call.name,
          args,
        ).catch((error: unknown) => {
          tool.end(errorTypeOf(error));
          throw error;
        });
        if (input.suspend?.aborted) throw abortReason(stop.signal);
        tool.end(outcome.isError ? "tool_error" : undefined);
        const text = scrub(outcome.isError ? `Error: ${outcome.text}` : outcome.text);
        emit({ type: "tool_result", id: call.id, isError: outcome.isError, text });
        messages.push({ role: "tool", tool_call_id: call.id, content: text });
        // The proxy's list_changed may arrive after the result: look again anyway.
        if (call.name === "tool_search") listChanged = true;
      }
      standing = undefined;
    };
    if (input.resume?.pending.length) {
      offered = await listOffered();
      listChanged = false;
      await callTools(input.resume.pending);
    }
    for (;;) {
      if (listChanged) {
        listChanged = false;
        offered = await listOffered();
      }
      input.budget?.admitModel();
      turns++;
      const chatTools: ChatTool[] = offered.map((t) => ({
        type: "function",
        function: {
          name: t.name,
          description: t.description ?? "",
          parameters: t.inputSchema ?? { type: "object", properties: {} },
        },
      }));
      const body: Record<string, unknown> = {
        model: options.model,
        messages,
        ...(chatTools.length ? { tools: chatTools } : {}),
        ...options.sampling,
        stream: true,
        stream_options: { include_usage: true },
      };
      const endpoint = new URL(checked.url);
      const chat = span(`chat ${options.model}`, "client", {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": options.model,
        "gen_ai.conversation.id": request.attemptId,
        "server.address": endpoint.hostname,
        "server.port": Number(endpoint.port) || (endpoint.protocol === "https:" ? 443 : 80),
      });
      const turn = await postChatCompletion({
        baseUrl: checked.url,
        ...(input.apiKey ? { apiKey: input.apiKey } : {}),
        body,
        signal: stop.signal,
        limits,
        scrub,
        onText: (text) => emit({ type: "text", text }),
        onRetry: (notice) => emit({ type: "retry", ...notice }),
        ...(input.random ? { random: input.random } : {}),
        ...(input.fetch ? { fetch: input.fetch } : {}),
      }).catch((error: unknown) => {
        chat.end(errorTypeOf(error), scrub((error as Error)?.message ?? String(error)));
        throw error;
      });
      const counted = count(turn, body);
      input.budget?.chargeModel({
        tokens: counted.inputTokens + counted.outputTokens,
        costUsd: input.price
          ? costOf({ ...counted, cacheReadTokens: 0, cacheWriteTokens: 0 }, input.price)
          : null,
      });
      chat.set({
        "gen_ai.usage.input_tokens": counted.inputTokens,
        "gen_ai.usage.output_tokens": counted.outputTokens,
        ...(turn.finishReason ? { "gen_ai.response.finish_reasons": [turn.finishReason] } : {}),
        ...(turn.usage && input.price
          ? {
              "switchyard.cost.usd": costOf(
                { ...turn.usage, cacheReadTokens: 0, cacheWriteTokens: 0 },
                input.price,
              ),
            }
          : {}),
        ...(turn.usage ? {} : { "switchyard.usage.estimated": true }),
      });
      chat.end();
      lastText = turn.text;
      if (turn.toolCalls.length === 0) {
        if (turn.finishReason === "tool_calls")
          throw loopGuard("the model ended its turn for tool calls but sent none");
        emit({ type: "final", text: turn.text });
        if (input.keepMessages && !input.keep)
          return {
            ...result("success"),
            messages: [...messages, { role: "assistant", content: turn.text }],
          };
        if (!input.keep) return result("success");
        return {
          ...result("success"),
          chatKept: {
            messages: [...messages, { role: "assistant", content: scrub(turn.text) }],
            pending: [],
            turns,
            usage: { ...usage },
            lastText,
          },
        };
      }
      if (turns >= maxTurns)
        throw loopGuard(`the model still called tools after ${maxTurns} turns (the step's limit)`);
      const calls = turn.toolCalls.map((c, i) => ({ ...c, id: c.id || `call_${turns}_${i}` }));
      messages.push({
        role: "assistant",
        content: turn.text || null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      });
      await callTools(calls);
    }
  } catch (error) {
    if (input.suspend?.aborted && !request.signal.aborted && standing)
      return { ...result("suspended"), session: standing };
    const appError = isAppError(error)
      ? error
      : new AppError("EXECUTION.STEP_ERROR", (error as Error)?.message ?? String(error));
    const cancelled = appError.code === "EXECUTION.CANCELLED" || request.signal.aborted;
    return result(cancelled ? "cancelled" : "failure", appError);
  } finally {
    unsubscribe();
    clearTimeout(deadline);
    request.signal.removeEventListener("abort", cancel);
    input.suspend?.removeEventListener("abort", onSuspend);
  }
};
