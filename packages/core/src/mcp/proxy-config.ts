/**
 * The config of `switchyard mcp-serve`, validated strictly: an unknown key is an error (a
 * typo must not silently drop a setting). It never holds a secret; the worker writes it for
 * each step, and a person can write one by hand.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { z } from "zod";
import { AppError } from "../errors";
import { BUILTIN_NAMES } from "../tools";
import { MAX_RESULT_CAP_BYTES, MIN_RESULT_CAP_BYTES } from "./result-cap";

const jsonObject = z.record(z.string(), z.unknown());

const catalogEntry = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(""),
  input_schema: jsonObject.optional(),
  output_schema: jsonObject.optional(),
  connector: z.string().min(1),
  tool: z.string().min(1),
});

/** Where Bash runs for this config (see `sandbox`). */
export const bashSandboxOf = (config: {
  sandbox?: "own" | "inherit" | undefined;
  channel?: unknown;
}): "own" | "inherit" => config.sandbox ?? (config.channel === undefined ? "own" : "inherit");

const proxyConfigSchema = z
  .strictObject({
    root_dir: z.string().refine(isAbsolute, "must be an absolute path"),
    builtins: z.union([z.boolean(), z.array(z.enum(BUILTIN_NAMES))]).default(true),
    catalog: z.array(catalogEntry).default([]),
    initial_tools: z.array(z.string()).optional(),
    tool_search: z.boolean().default(false),
    channel: z.strictObject({ path: z.string().min(1), token: z.string().min(16) }).optional(),
    record_file: z.string().refine(isAbsolute, "must be an absolute path").optional(),
    trace: z.strictObject({ traceparent: z.string() }).optional(),
    /** Environment names (values come from the proxy's own environment) Bash commands get. */
    shell_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
    /** A structured log line per call on stderr. */
    log_calls: z.boolean().default(true),
    /** How long a call's answer waits for the worker to confirm its record is stored (default 5000). */
    record_wait_ms: z.number().int().min(0).max(60_000).optional(),
    server_name: z.string().default("switchyard"),
    /**
     * Where `Bash` runs: `own`, a sandbox of its own over root_dir (a proxy started by hand);
     * `inherit`, a plain child sharing the step sandbox the worker started the proxy in.
     * Unset: `inherit` with a step channel (only the worker gives one), else `own`.
     */
    sandbox: z.enum(["own", "inherit"]).optional(),
    /** With `sandbox: "own"`: whether Bash commands may use the network (default false). */
    bash_network: z.boolean().optional(),
    /**
     * UTF-8 bytes of text a tools/call result may carry back to the agent (default
     * DEFAULT_RESULT_CAP_BYTES); over it the text is cut with a marker and kept whole in a
     * workspace file (see result-cap.ts).
     */
    result_cap_bytes: z
      .number()
      .int()
      .min(MIN_RESULT_CAP_BYTES)
      .max(MAX_RESULT_CAP_BYTES)
      .optional(),
    /**
     * A replay (docs/replay.md): every built-in and connector call is sent to the step
     * channel, whose worker answers it from the recorded attempt; nothing runs here. A call
     * with no recording left gets a USER.REPLAY.NO_RECORDING tool error, or with
     * `live_builtins`, if it is a built-in, runs live in the sandbox. Needs `channel`.
     */
    replay: z.strictObject({ unmatched: z.enum(["error", "live_builtins"]) }).optional(),
    /**
     * Built-ins the worker must allow before each call runs (`gate` on the step channel): a
     * rule may hold the call for a person's approval, a budget may refuse it. Needs `channel`.
     */
    gate: z.array(z.string()).optional(),
  })
  .refine((c) => c.gate === undefined || c.gate.length === 0 || c.channel !== undefined, {
    path: ["gate"],
    message: "needs a step channel (`channel`): the worker decides",
  })
  .refine((c) => c.replay === undefined || c.channel !== undefined, {
    path: ["replay"],
    message: "needs a step channel (`channel`): the worker holds the recording",
  })
  .refine((c) => bashSandboxOf(c) === "own" || c.bash_network === undefined, {
    path: ["bash_network"],
    message: 'has no effect when Bash inherits the step sandbox ("sandbox": "inherit")',
  });

export type ProxyConfig = z.infer<typeof proxyConfigSchema>;

const parseProxyConfig = (raw: unknown, file = "config"): ProxyConfig => {
  const parsed = proxyConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? first.path.join(".") : "(root)";
  const code =
    first?.code === "unrecognized_keys"
      ? "USER.MCP_PROXY.UNKNOWN_KEY"
      : "USER.INPUT.VALIDATION_FAILED";
  const detail = parsed.error.issues
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  throw new AppError(code, `${file}: invalid mcp-serve config: ${detail}`, {
    location: { file, path: where },
  });
};

/** Reads and validates the proxy's config file; throws an AppError naming what is wrong. */
export const loadProxyConfig = async (file: string): Promise<ProxyConfig> => {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `cannot read config ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  return parseProxyConfig(raw, file);
};
