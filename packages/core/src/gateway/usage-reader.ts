/**
 * Reads token usage and the model name out of a model response while it streams through
 * the gateway, in each vendor's format: Anthropic `usage` (message_start, message_delta,
 * or the whole message; cache reads and writes), OpenAI Chat `usage` (the final streamed
 * chunk too), OpenAI Responses `usage` (`response.completed` when streamed), Gemini
 * `usageMetadata`. Counts are cumulative in every format, so the last one seen wins.
 */
import { StringDecoder } from "node:string_decoder";
import { JsonScanner, type JsonPrimitive } from "./json-scanner";
import { SseJsonReader } from "./sse-json-reader";
import type { Usage } from "./gateway-types";

/** The response formats the gateway meters. */
export type MeteredApi = "anthropic-messages" | "openai-chat" | "openai-responses" | "gemini";

type Field = "input" | "output" | "cacheRead" | "cacheWrite" | "thoughts" | "toolInput" | "model";

const prefixed = (prefix: string, rules: Record<string, Field>) =>
  Object.fromEntries(Object.entries(rules).map(([k, v]) => [`${prefix}${k}`, v]));

const ANTHROPIC_USAGE: Record<string, Field> = {
  "usage.input_tokens": "input",
  "usage.output_tokens": "output",
  "usage.cache_read_input_tokens": "cacheRead",
  "usage.cache_creation_input_tokens": "cacheWrite",
  model: "model",
};

const RESPONSES_USAGE: Record<string, Field> = {
  "usage.input_tokens": "input",
  "usage.output_tokens": "output",
  "usage.input_tokens_details.cached_tokens": "cacheRead",
  model: "model",
};

/** Paths from the document's root (see JsonScanner; a leading `[]` dropped) to what they hold. */
const RULES: Record<MeteredApi, Record<string, Field>> = {
  "anthropic-messages": { ...ANTHROPIC_USAGE, ...prefixed("message.", ANTHROPIC_USAGE) },
  "openai-chat": {
    "usage.prompt_tokens": "input",
    "usage.completion_tokens": "output",
    "usage.prompt_tokens_details.cached_tokens": "cacheRead",
    model: "model",
  },
  "openai-responses": { ...RESPONSES_USAGE, ...prefixed("response.", RESPONSES_USAGE) },
  gemini: {
    "usageMetadata.promptTokenCount": "input",
    "usageMetadata.candidatesTokenCount": "output",
    "usageMetadata.thoughtsTokenCount": "thoughts",
    "usageMetadata.toolUsePromptTokenCount": "toolInput",
    "usageMetadata.cachedContentTokenCount": "cacheRead",
    modelVersion: "model",
  },
};

/** How the input count relates to cached tokens in each format. */
const INPUT_EXCLUDES_CACHE: Record<MeteredApi, boolean> = {
  "anthropic-messages": true,
  "openai-chat": false,
  "openai-responses": false,
  gemini: false,
};

export type UsageReading = { usage: Usage | undefined; model: string | undefined };

export class UsageReader {
  private readonly seen = new Map<Field, number>();
  private model: string | undefined;
  private readonly decoder = new StringDecoder("utf8");
  private readonly scanner: JsonScanner;
  private readonly sse: SseJsonReader | undefined;

  constructor(
    private readonly api: MeteredApi,
    format: "sse" | "json",
  ) {
    const rules = RULES[api];
    this.scanner = new JsonScanner((path, value) => this.take(rules, path, value));
    this.sse = format === "sse" ? new SseJsonReader(this.scanner) : undefined;
  }

  write(bytes: Buffer): void {
    this.feed(this.decoder.write(bytes));
  }

  end(): UsageReading {
    this.feed(this.decoder.end());
    if (this.sse) this.sse.end();
    else this.scanner.end();
    return { usage: this.usage(), model: this.model };
  }

  private feed(text: string): void {
    if (!text) return;
    if (this.sse) this.sse.write(text);
    else this.scanner.write(text);
  }

  private take(rules: Record<string, Field>, path: string, value: JsonPrimitive): void {
    // a streamed JSON array (Gemini without SSE) holds one response per element
    const key = path.startsWith("[].") ? path.slice(3) : path;
    const field = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (!field) return;
    if (field === "model") {
      if (typeof value === "string" && value) this.model = value;
    } else if (typeof value === "number" && Number.isInteger(value) && value >= 0) {
      this.seen.set(field, value);
    }
  }

  private usage(): Usage | undefined {
    if (this.seen.size === 0) return undefined;
    const n = (f: Field) => this.seen.get(f) ?? 0;
    const cacheRead = n("cacheRead");
    const cacheWrite = n("cacheWrite");
    const input =
      n("input") + n("toolInput") + (INPUT_EXCLUDES_CACHE[this.api] ? cacheRead + cacheWrite : 0);
    return {
      inputTokens: input,
      outputTokens: n("output") + n("thoughts"),
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
    };
  }
}
