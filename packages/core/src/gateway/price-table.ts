/**
 * What a model request cost, from its token counts and a price table in USD per million
 * tokens. The defaults are the vendors' published list prices for a few well-known models
 * (standard tier, short context, no batch discount) as of late 2025; a team with other
 * prices or other models passes its own table, merged over these. A table key is a model
 * name or a prefix of one (`claude-sonnet-4-5` prices `claude-sonnet-4-5-20250929`).
 */
import type { ModelPrice, PriceTable, Usage } from "./gateway-types";

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
});

/** List prices (USD per million tokens) of well-known models; a team's table is merged over them. */
export const DEFAULT_PRICES: PriceTable = {
  "claude-opus-4-5": anthropic(5, 25),
  "claude-opus-4-1": anthropic(15, 75),
  "claude-opus-4": anthropic(15, 75),
  "claude-sonnet-4-5": anthropic(3, 15),
  "claude-sonnet-4": anthropic(3, 15),
  "claude-3-7-sonnet": anthropic(3, 15),
  "claude-haiku-4-5": anthropic(1, 5),
  "claude-3-5-haiku": anthropic(0.8, 4),
  "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cacheRead: 0.55 },
  "o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275 },
  "gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.03 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cacheRead: 0.01 },
  // The built-in demo model (a recorded session on the worker's loopback) costs nothing.
  "switchyard-demo": { input: 0, output: 0, cacheRead: 0 },
};

/**
 * The price of a model: an exact key, else the longest key the name starts with followed
 * by `-` (so `o3` never prices `o3-mini` when that has its own key). A provider prefix
 * (`models/`, `openai/`) is tried without it too.
 */
export const priceOf = (model: string, table: PriceTable): ModelPrice | undefined => {
  const lower = model.toLowerCase();
  const names = [lower, ...(lower.includes("/") ? [lower.slice(lower.lastIndexOf("/") + 1)] : [])];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const k = key.toLowerCase();
    if (names.includes(k)) return table[key];
    if (names.some((n) => n.startsWith(`${k}-`)) && (!best || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
};

/** USD for one request; cached input at the cache prices (the input price when the table has none). */
export const costOf = (usage: Usage, price: ModelPrice): number => {
  const fresh = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (fresh * price.input +
      usage.cacheReadTokens * (price.cacheRead ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
};
