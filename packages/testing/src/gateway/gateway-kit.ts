/**
 * Shared fixtures of the gateway tests: a gateway in front of a real upstream (the
 * scripted model or a small HTTP server of the test's own), each vendor's request as its
 * CLI sends it, and a deadline for reads that must not wait on the upstream. Not product code.
 */
import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import type { ScriptInput } from "@switchyard/scripted-model";
import type { GatewayOptions, MeterEvent, Registration, Vendor } from "@switchyard/core/gateway";
import { startModelGateway, type ModelGateway } from "@switchyard/core/gateway";

export const REAL_KEY = `sk-team-real-${randomBytes(12).toString("hex")}`;

export type Harness = {
  gateway: ModelGateway;
  logs: string[];
  register(
    vendor: Vendor,
    baseUrl: string,
    extra?: { apiKey?: string },
  ): Registration & { events: MeterEvent[] };
  close(): Promise<void>;
};

/** A gateway whose log lines are kept as JSON text. */
export const startHarness = async (options: GatewayOptions = {}): Promise<Harness> => {
  const logs: string[] = [];
  const gateway = await startModelGateway({
    ...options,
    log: (level, message, fields) => logs.push(JSON.stringify({ level, message, ...fields })),
  });
  return {
    gateway,
    logs,
    register(vendor, baseUrl, extra = {}) {
      const events: MeterEvent[] = [];
      const reg = gateway.register({
        vendor,
        upstream: { baseUrl, apiKey: extra.apiKey ?? REAL_KEY },
        meter: (event) => events.push(event),
        label: `test-${vendor}`,
      });
      return { ...reg, events };
    },
    close: () => gateway.close(),
  };
};

/** The scripted model's base URL as a registration of `vendor` wants it (OpenAI's carries /v1). */
export const upstreamBase = (model: ScriptedModel, vendor: Vendor) =>
  vendor === "openai" ? `${model.url}/v1` : model.url;

export const scripted = (script: ScriptInput) => startScriptedModel({ script });

/** A plain HTTP server on loopback, for upstream behaviour the scripted model does not have. */
export const startUpstream = async (handler: RequestListener) => {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** Things a test started, closed in reverse order after it (call `run` in afterEach). */
export const cleanup = () => {
  const closers: Array<() => Promise<unknown>> = [];
  return {
    add<T extends { close(): Promise<unknown> }>(thing: T): T {
      closers.push(() => thing.close());
      return thing;
    },
    defer(fn: () => Promise<unknown>) {
      closers.push(fn);
    },
    async run() {
      while (closers.length) await closers.pop()!();
    },
  };
};

/** A port nothing listens on (bound, then released). */
export const closedPort = async () => {
  const upstream = await startUpstream(() => undefined);
  const port = Number(new URL(upstream.url).port);
  await upstream.close();
  return port;
};

export type ApiCase = {
  name: string;
  vendor: Vendor;
  model: string;
  stream: boolean;
  /** The request as the vendor's CLI sends it, to a registration's base URL. */
  send: (baseUrl: string, token: string) => Promise<Response>;
};

const json = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

export const anthropicCall = (model: string, stream: boolean): ApiCase => ({
  name: `anthropic messages${stream ? " (SSE)" : ""}`,
  vendor: "anthropic",
  model,
  stream,
  send: (base, token) =>
    json(
      `${base}/v1/messages?beta=true`,
      { "x-api-key": token, "anthropic-version": "2023-06-01" },
      { model, max_tokens: 100, stream, messages: [{ role: "user", content: "hi" }] },
    ),
});

export const chatCall = (model: string, stream: boolean): ApiCase => ({
  name: `openai chat${stream ? " (SSE)" : ""}`,
  vendor: "openai",
  model,
  stream,
  send: (base, token) =>
    json(
      `${base}/chat/completions`,
      { authorization: `Bearer ${token}` },
      {
        model,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: "user", content: "hi" }],
      },
    ),
});

export const responsesCall = (model: string, stream: boolean): ApiCase => ({
  name: `openai responses${stream ? " (SSE)" : ""}`,
  vendor: "openai",
  model,
  stream,
  send: (base, token) =>
    json(`${base}/responses`, { authorization: `Bearer ${token}` }, { model, stream, input: "hi" }),
});

export const geminiCall = (model: string, mode: "json" | "sse" | "array"): ApiCase => ({
  name: `gemini ${mode === "json" ? "generateContent" : `streamGenerateContent (${mode})`}`,
  vendor: "gemini",
  model,
  stream: mode !== "json",
  send: (base, token) =>
    json(
      `${base}/v1beta/models/${model}:${mode === "json" ? "generateContent" : "streamGenerateContent"}${mode === "sse" ? "?alt=sse" : ""}`,
      { "x-goog-api-key": token },
      { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    ),
});

/** Rejects when `promise` has not settled within `ms`, saying what did not arrive. */
export const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
    }),
  ]);
};
