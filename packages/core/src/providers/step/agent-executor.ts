/**
 * The engine's agent port, one sandbox and proxy per attempt, for the worker and
 * `switchyard run` alike; each supplies ports (where keys, endpoints, staged CLIs, the
 * gateway and connectors come from, where records and events go):
 * - agent CLIs (CLI_PROVIDERS): the CLI runs inside the step sandbox behind the model
 *   gateway (runCliStep), with the key and endpoint the `upstream` port gives for its vendor.
 * - `openai_compatible`: this process is the MCP client of the step's sandboxed proxy and
 *   drives the Chat Completions loop itself (runOpenAiCompatible). The key is
 *   `options.api_key`, else the port's; `options.base_url` must fall under an allowed endpoint.
 * With the `replay` port the attempt's proxy runs no tool: every call is answered from the
 * recorded attempt's calls (docs/replay.md) and no connector is opened.
 * Each attempt has an event bus (AttemptEvents: `tool.recorded`, `span.ended`,
 * `agent.reported`, `model.metered`) that the caller's subscribers take what happens from;
 * the attempt ends once what they stored is flushed. Keys are scrubbed from every error.
 */
import { AppError } from "../../errors";
import {
  costOf,
  DEFAULT_PRICES,
  priceOf,
  type ModelGateway,
  type PriceTable,
  type Vendor,
} from "../../gateway";
import type { FetchLike } from "../../egress";
import { createEventBus, type AttemptEventBus, type AttemptEvents } from "../../events";
import type { BudgetMeter } from "../../governance/budget-meter";
import { BUILTIN_NAMES } from "../../tools/builtin-tools";
import type { ReplayPlan } from "../../replay/replay-book";
import type { SandboxHost } from "../../sandbox";
import type { Scrubber } from "../../secrets";
import type { AgentExecutor, AgentRequest, AgentResult } from "../../workflow/model/engine-ports";
import { CLI_PROVIDERS, type CliProviderEntry } from "../cli-providers";
import {
  runOpenAiCompatible,
  toolProxyFromClient,
  toolResultText,
  type OpenAiSession,
} from "../openai-compatible";
import type { ChatMessage } from "../openai-compatible/run-openai-compatible";
import type { SuspendedSession } from "./session-files";
import type { AgentVersionChoice } from "../agent-versions";
import type { AgentStaging } from "./agent-staging";
import { runCliStep } from "./cli-step";
import { openStepProxyClient } from "./step-proxy";
import { replayConnectors, stepToolsOf, type StepConnectors } from "./step-tools";
import type { StepTracer } from "../step-tracer";
import type { AttemptGovernance } from "./attempt-governance";

/** A suspended CLI attempt as stored: its session, and the call that was held when it stopped. */
type HeldCli = {
  session: SuspendedSession;
  pending: { tool: string; arguments: Record<string, unknown> };
};

/** The next turn of a resumed CLI: what became of the call it was waiting on. */
const continuation = (pending: HeldCli["pending"], outcome: { isError: boolean; text: string }) =>
  outcome.isError
    ? `Your call to ${pending.tool} waited for a person's approval and was not run: ${outcome.text}\nDo not call it again with the same arguments; go on with the task another way, or stop and say why.`
    : `Your call to ${pending.tool} waited for a person's approval and was approved; it ran and returned:\n${outcome.text}\nGo on with the task from there.`;

/** A conversation's next turn of openai_compatible: its messages so far, then the person's. */
const nextTurn = (
  next: { state: { kind: string; state: unknown }; message: string } | undefined,
) => {
  if (next?.state.kind !== "openai_compatible") return {};
  const session = next.state.state as OpenAiSession;
  return {
    resume: {
      ...session,
      messages: [...session.messages, { role: "user" as const, content: next.message }],
      pending: [],
      // The turn limit holds for each turn of the conversation, not for all of them together.
      turns: 0,
    },
  };
};

/** What a held call may take beyond its hold limit: the longest a proxy lets a Bash command run, and then some. */
const HELD_CALL_MARGIN_MS = 11 * 60_000;
/** What a step's own `tool_timeout` is never set below beyond the hold limit: a held call is suspended before the agent gives up on it. */
const HELD_CALL_FLOOR_MS = 10_000;

/**
 * How long the agent waits for one tool call: the step's `tool_timeout` (never below the
 * hold limit and its floor), else long enough for a held call to be answered and then run.
 * Undefined: the provider's own default.
 */
export const stepToolTimeoutMs = (
  request: Pick<AgentRequest, "toolTimeoutMs">,
  holdMs: number | undefined,
): number | undefined => {
  if (request.toolTimeoutMs === undefined) return holdMs ? holdMs + HELD_CALL_MARGIN_MS : undefined;
  return Math.max(request.toolTimeoutMs, holdMs ? holdMs + HELD_CALL_FLOOR_MS : 0);
};

/** stepToolTimeoutMs as the named option, or nothing when the provider's default holds. */
const toolTimeoutOf = <K extends string>(
  request: Pick<AgentRequest, "toolTimeoutMs">,
  holdMs: number | undefined,
  key: K,
): Partial<Record<K, number>> => {
  const ms = stepToolTimeoutMs(request, holdMs);
  return ms === undefined ? {} : ({ [key]: ms } as Record<K, number>);
};

/** What subscribed to an attempt's events: `flush` waits for what they store, before the attempt ends. */
export type AttemptSubscribers = { flush?: () => Promise<void> };

export type AgentExecutorPorts = {
  /** The run's host (owner tag `<worker>/<run>`), step uid, folder and workspace. */
  sandbox: SandboxHost;
  uid: number | undefined;
  runDir: string;
  workspace: string;
  scrubber: Scrubber;
  staging: AgentStaging;
  /** Which install of its CLI a CLI step runs (the agents folder's pinned one unless told). */
  agentVersion?: AgentVersionChoice;
  /** The model gateway CLI steps reach their vendor through; unset: CLI providers are unavailable. */
  gateway: (() => Promise<ModelGateway>) | undefined;
  /** The endpoint and key for a vendor's CLI steps; undefined: none is configured. */
  upstream: (vendor: Vendor) => Promise<{ baseUrl: string; apiKey: string } | undefined>;
  /** The key (when options.api_key is unset) and the endpoints openai_compatible steps may call. */
  openAiAccess: (
    request: AgentRequest,
  ) => Promise<{ apiKey: string | undefined; allowedEndpoints: readonly string[] }>;
  /** The fetch for openai_compatible requests (the worker's obeys the egress rule). */
  modelFetch?: FetchLike;
  /** Prices over the built-in table, for what openai_compatible steps cost. */
  prices?: PriceTable;
  /** The connectors an attempt's `mcp_proxy` names, resolved before it starts; unset: none. */
  stepConnectors?: (request: AgentRequest) => Promise<StepConnectors | undefined>;
  /**
   * A replay of a recorded attempt: its proxy answers every tool call from `recordings` and
   * runs nothing (or, with `unmatched: "live_builtins"`, a built-in with no recording left);
   * `stepConnectors` is not called: the connector tools listed are the plan's `catalog`.
   */
  replay?: ReplayPlan;
  /**
   * The attempt's budgets (its step's `budget:` with its workflow's, lane's and team's
   * limits), asked before it starts; undefined: nothing limits it. The meter is charged with
   * every model request metered and every tool call made.
   */
  budget?: (request: AgentRequest) => Promise<BudgetMeter | undefined>;
  /**
   * The session a `continue_from` step resumes, as a session-tracked step kept it (`kept` of
   * its result); undefined when none was kept. Unset: a `continue_from` step cannot run.
   */
  continuedSession?: (
    request: AgentRequest,
  ) => Promise<{ kind: string; sessionId?: string; state: unknown } | undefined>;
  /** What governance asks of an attempt (gated calls, suspension, a resume); unset: nothing. */
  governance?: (request: AgentRequest) => AttemptGovernance | undefined;
  /** Subscribes to a new attempt's events. */
  subscribe: (request: AgentRequest, events: AttemptEventBus) => AttemptSubscribers;
  /** Opens the spans of an openai_compatible attempt's model requests and tool calls, under the attempt's span. */
  tracer?: StepTracer;
  /** Runs an attempt inside a span of the caller's trace, whose traceparent the proxy continues. */
  traced?: (
    request: AgentRequest,
    run: (traceparent: string | undefined) => Promise<AgentResult>,
  ) => Promise<AgentResult>;
  messages: {
    /** Why a CLI step has no key, told the way its user sets one. */
    notConfigured: (request: AgentRequest, entry: CliProviderEntry) => string;
    /** Where the executor runs, in "does not run <where>": "in the worker", "here". */
    where: string;
  };
};

const apiKeyOf = (options: Record<string, unknown>) => {
  const key = options.api_key;
  if (key === undefined || key === "") return undefined;
  if (typeof key !== "string")
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      'options.api_key must be a string (e.g. "{{.env.MODEL_KEY}}")',
      {
        location: { path: "options.api_key" },
      },
    );
  return key;
};

/** Charges an attempt's budget with each model request the gateway meters (its tool calls are charged at the gate). */
const chargeBudget = (events: AttemptEventBus, budget: BudgetMeter | undefined) => {
  if (!budget) return;
  events.subscribe("model.metered", (event) =>
    budget.chargeModel({
      tokens: event.inputTokens + event.outputTokens,
      costUsd: event.costUsd,
    }),
  );
};

/**
 * The step channel's gate: with a budget, every call (each built-in too) is first admitted
 * by it (a refusal is the call's USER.BUDGET.EXCEEDED, and the step's), then goes through
 * governance's gate where that gates it, and is charged once let through.
 */
const gateOf = (governed: AttemptGovernance | undefined, budget: BudgetMeter | undefined) => {
  const gate = governed?.gate;
  if (!budget) return gate ? { gate } : {};
  return {
    gate: {
      builtins: [...BUILTIN_NAMES],
      beforeCall: async (
        call: Parameters<NonNullable<typeof gate>["beforeCall"]>[0],
        signal: AbortSignal,
      ) => {
        budget.admitCall(call.tool);
        if (gate && (call.source !== "builtin" || gate.builtins.includes(call.tool)))
          await gate.beforeCall(call, signal);
        budget.chargeCall(call.tool);
      },
    },
  };
};

/** The engine's agent port: each attempt gets its own sandbox and proxy. */
export const createAgentExecutor = (ports: AgentExecutorPorts): AgentExecutor => {
  const { scrubber, staging } = ports;
  /** The session a `continue_from` step resumes, of the kind its provider runs; AWF's error when there is none. */
  const continuedOf = async (request: AgentRequest, kind: string) => {
    const from = request.conversation?.continueFrom;
    if (!from) return undefined;
    const kept = await ports.continuedSession?.(request);
    if (!kept || kept.kind !== kind)
      throw new AppError(
        "EXECUTION.CONTINUE_FROM.NO_SESSION",
        `continue_from: step "${from.state}" has no session ID or conversation history to resume`,
      );
    return kept.state;
  };
  const prices = { ...DEFAULT_PRICES, ...ports.prices };
  const priceFields = (options: Record<string, unknown>) => {
    const price = typeof options.model === "string" ? priceOf(options.model, prices) : undefined;
    return price ? { price } : {};
  };
  /** What an openai_compatible step cost at the table's price of its model, when it has one and the tokens were counted. */
  const costFields = (options: Record<string, unknown>, result: AgentResult) => {
    const { price } = priceFields(options);
    if (
      !price ||
      result.tokensEstimated ||
      result.tokensInput === undefined ||
      result.tokensOutput === undefined
    )
      return {};
    return {
      costUsd: costOf(
        {
          inputTokens: result.tokensInput,
          outputTokens: result.tokensOutput,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        price,
      ),
    };
  };
  const proxyOf = async (
    request: AgentRequest,
    traceparent: string | undefined,
    connectors: StepConnectors | undefined,
    governed?: AttemptGovernance,
    budget?: BudgetMeter,
  ) => ({
    sandbox: ports.sandbox,
    uid: ports.uid,
    runDir: ports.runDir,
    workspace: ports.workspace,
    cli: await staging.builtCli(),
    ...(traceparent ? { traceparent } : {}),
    tools: stepToolsOf(request.mcpProxy, connectors),
    ...(ports.replay ? { replay: ports.replay } : {}),
    ...gateOf(governed, budget),
  });
  /** The attempt's connectors: resolved by the port, or in a replay the recorded catalog, opening none. */
  const connectorsOf = (request: AgentRequest) =>
    ports.replay
      ? Promise.resolve(replayConnectors(ports.replay))
      : ports.stepConnectors?.(request);

  const runCli = async (
    entry: CliProviderEntry,
    request: AgentRequest,
    traceparent: string | undefined,
  ): Promise<AgentResult> => {
    if (!ports.gateway)
      throw new AppError("EXECUTION.AGENT_UNAVAILABLE", "this worker has no model gateway");
    const upstream = await ports.upstream(entry.cli.vendor);
    if (!upstream)
      throw new AppError(
        "USER.PROVIDER.NOT_CONFIGURED",
        ports.messages.notConfigured(request, entry),
        {
          location: { path: `states.${request.stateName}.provider` },
        },
      );
    scrubber.add(upstream.apiKey);
    const budget = await ports.budget?.(request);
    const connectors = await connectorsOf(request);
    const events = createEventBus<AttemptEvents>();
    const subscribers = ports.subscribe(request, events);
    chargeBudget(events, budget);
    try {
      const agent = await staging.agent(entry.agent, ports.agentVersion ?? "pinned");
      const governed = ports.governance?.(request);
      const proxy = await proxyOf(request, traceparent, connectors, governed, budget);
      const held =
        governed?.resume?.kind === "cli" ? (governed.resume.state as HeldCli) : undefined;
      // Resumed after a held call was answered: the call runs (or is refused) first, and its
      // outcome is the next turn of the CLI's own session.
      // A conversation's next turn: its session resumes with the person's message.
      const next = governed?.conversation?.next;
      const chat =
        next?.state.kind === "cli"
          ? { ...(next.state.state as { session: SuspendedSession }).session, prompt: next.message }
          : undefined;
      // A `continue_from` step: the earlier step's session, with this step's prompt as its next turn.
      const continued =
        held || chat
          ? undefined
          : ((await continuedOf(request, "cli")) as { session: SuspendedSession } | undefined);
      const resume = held
        ? {
            ...held.session,
            prompt: continuation(
              held.pending,
              await runHeldCall(request, proxy, events, held.pending),
            ),
          }
        : (chat ?? (continued ? { ...continued.session, prompt: request.prompt } : undefined));
      const { suspended, kept, ...result } = await runCliStep({
        provider: entry.cli,
        request,
        proxy,
        agent,
        gateway: await ports.gateway(),
        upstream,
        events,
        ...(budget ? { budget } : {}),
        ...toolTimeoutOf(request, governed?.holdMs, "toolTimeoutMs"),
        ...(governed?.suspend ? { suspend: governed.suspend } : {}),
        ...(resume ? { resume } : {}),
        ...(governed?.conversation
          ? { keepSession: true }
          : request.conversation
            ? { keep: true }
            : {}),
      });
      return {
        ...result,
        agentVersion: agent.version,
        ...(kept
          ? {
              [governed?.conversation ? "chatSession" : "kept"]: {
                kind: "cli",
                sessionId: kept.sessionId,
                state: { session: kept },
              },
            }
          : {}),
        ...(suspended
          ? {
              suspended: {
                kind: "cli",
                sessionId: suspended.sessionId,
                state: { session: suspended },
              },
            }
          : {}),
      };
    } finally {
      await connectors?.host.close();
      await subscribers.flush?.();
    }
  };

  /** The held call, run through a proxy of the step's own (its answer decides at the gate). */
  const runHeldCall = async (
    request: AgentRequest,
    proxy: Awaited<ReturnType<typeof proxyOf>>,
    events: AttemptEventBus,
    pending: HeldCli["pending"],
  ): Promise<{ isError: boolean; text: string }> => {
    const step = await openStepProxyClient({
      ...proxy,
      attemptId: request.attemptId,
      events,
      secrets: [],
      signal: request.signal,
    });
    try {
      const result = await toolProxyFromClient(step.client).callTool(
        pending.tool,
        pending.arguments,
        request.signal,
      );
      return { isError: result.isError === true, text: scrubber.scrub(toolResultText(result)) };
    } finally {
      await step.close();
    }
  };

  const runOpenAi = async (
    request: AgentRequest,
    traceparent: string | undefined,
  ): Promise<AgentResult> => {
    const access = await ports.openAiAccess(request);
    const apiKey = apiKeyOf(request.options) ?? access.apiKey;
    // A key written literally in the workflow is a secret all the same.
    if (apiKey) scrubber.add(apiKey);
    const budget = await ports.budget?.(request);
    const connectors = await connectorsOf(request);
    const events = createEventBus<AttemptEvents>();
    const subscribers = ports.subscribe(request, events);
    chargeBudget(events, budget);
    // The step's connectors are let go when it ends, whichever way (its grants stop feeding its scrubber).
    try {
      return await openAiStep(request, {
        governed: ports.governance?.(request),
        traceparent,
        allowedEndpoints: access.allowedEndpoints,
        apiKey,
        connectors,
        events,
        subscribers,
        budget,
      });
    } finally {
      await connectors?.host.close();
    }
  };

  type OpenAiStep = {
    governed: AttemptGovernance | undefined;
    traceparent: string | undefined;
    allowedEndpoints: readonly string[];
    apiKey: string | undefined;
    connectors: StepConnectors | undefined;
    events: AttemptEventBus;
    subscribers: AttemptSubscribers;
    budget: BudgetMeter | undefined;
  };
  const openAiStep = async (
    request: AgentRequest,
    {
      governed,
      traceparent,
      allowedEndpoints,
      apiKey,
      connectors,
      events,
      subscribers,
      budget,
    }: OpenAiStep,
  ): Promise<AgentResult> => {
    let step: Awaited<ReturnType<typeof openStepProxyClient>>;
    try {
      step = await openStepProxyClient({
        ...(await proxyOf(request, traceparent, connectors, governed, budget)),
        attemptId: request.attemptId,
        events,
        secrets: apiKey ? [apiKey] : [],
        signal: request.signal,
      });
    } catch (error) {
      // Cancelled while the proxy was starting: the step was cancelled, not broken.
      if (!request.signal.aborted) throw error;
      await subscribers.flush?.();
      return {
        output: "",
        error: "EXECUTION.CANCELLED: the step was cancelled while its MCP proxy was starting",
      };
    }
    try {
      // A suspended step going on, or a chat's next turn: neither reads a continue_from session again.
      const resumed =
        governed?.resume?.kind === "openai_compatible" ||
        governed?.conversation?.next !== undefined;
      const history = resumed
        ? undefined
        : ((await continuedOf(request, "openai_compatible")) as
            { messages: ChatMessage[] } | undefined);
      const result = await runOpenAiCompatible({
        request,
        ...(history ? { history: history.messages } : {}),
        ...(request.conversation ? { keepMessages: true } : {}),
        // A call held for approval may take the hold limit on top of its own run time.
        tools: toolProxyFromClient(
          step.client,
          toolTimeoutOf(request, governed?.holdMs, "callTimeoutMs"),
        ),
        allowedEndpoints,
        ...(ports.modelFetch ? { fetch: ports.modelFetch } : {}),
        onEvent: (event) => void events.emit("agent.reported", event),
        ...(apiKey ? { apiKey } : {}),
        ...(ports.tracer ? { tracer: ports.tracer } : {}),
        ...priceFields(request.options),
        ...(budget ? { budget } : {}),
        ...(governed?.suspend ? { suspend: governed.suspend } : {}),
        ...(governed?.resume?.kind === "openai_compatible"
          ? { resume: governed.resume.state as OpenAiSession }
          : nextTurn(governed?.conversation?.next)),
        ...(governed?.conversation ? { keep: true } : {}),
      });
      const {
        status: _status,
        retryable: _retryable,
        turns: _turns,
        session,
        messages,
        chatKept,
        ...agentResult
      } = result;
      if (chatKept)
        return {
          ...agentResult,
          ...costFields(request.options, result),
          chatSession: { kind: "openai_compatible", state: chatKept },
        };
      if (session)
        return {
          ...agentResult,
          ...costFields(request.options, result),
          suspended: { kind: "openai_compatible", state: session },
        };
      return {
        ...agentResult,
        ...costFields(request.options, result),
        ...(messages ? { kept: { kind: "openai_compatible", state: { messages } } } : {}),
      };
    } finally {
      try {
        await step.close();
      } finally {
        // Records the proxy sent before it ended are in; the step ends once they are stored.
        await subscribers.flush?.();
      }
    }
  };

  const providerOf = (name: string) => {
    if (name === "openai_compatible") return runOpenAi;
    if (!Object.hasOwn(CLI_PROVIDERS, name)) return undefined;
    const entry = CLI_PROVIDERS[name]!;
    return (request: AgentRequest, traceparent: string | undefined) =>
      runCli(entry, request, traceparent);
  };

  return {
    execute: async (request) => {
      try {
        const run = providerOf(request.provider);
        if (!run)
          throw new AppError(
            "EXECUTION.AGENT_UNAVAILABLE",
            `provider "${request.provider}" of "${request.stateName}" does not run ${ports.messages.where} (${[...Object.keys(CLI_PROVIDERS), "openai_compatible"].join(", ")} do)`,
          );
        return await (ports.traced
          ? ports.traced(request, (traceparent) => run(request, traceparent))
          : run(request, undefined));
      } catch (error) {
        throw scrubber.scrubError(error);
      }
    },
  };
};
