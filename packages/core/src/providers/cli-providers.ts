/**
 * The agent CLIs a step's `provider` can name, each with the CLI it runs (from the agents
 * folder), how it runs (a CliProvider) and, for `switchyard run`, the environment variables
 * a person already sets for its vendor. The worker and the CLI both dispatch from here, so a
 * provider added here runs in both.
 */
import type { Vendor } from "../gateway";
import { claudeCli } from "./claude/claude-cli";
import { codexCli } from "./codex/codex-cli";
import { geminiCli } from "./gemini/gemini-cli";
import type { AgentId } from "./locate-agent";
import { opencodeCli } from "./opencode/opencode-cli";
import type { CliProvider } from "./step/cli-step";

export type CliProviderEntry = { agent: AgentId; label: string; cli: CliProvider };

export const CLI_PROVIDERS: Readonly<Record<string, CliProviderEntry>> = {
  claude: { agent: "claude", label: "Claude Code", cli: claudeCli },
  codex: { agent: "codex", label: "Codex", cli: codexCli },
  gemini: { agent: "gemini", label: "Gemini CLI", cli: geminiCli },
  opencode: { agent: "opencode", label: "OpenCode", cli: opencodeCli },
};

export const VENDOR_LABELS: Readonly<Record<Vendor, string>> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
};

/** The variables holding a vendor's key and endpoint on a person's machine, first found wins. */
export const VENDOR_ENV: Readonly<
  Record<Vendor, { key: readonly string[]; baseUrl: readonly string[] }>
> = {
  anthropic: { key: ["ANTHROPIC_API_KEY"], baseUrl: ["ANTHROPIC_BASE_URL"] },
  openai: { key: ["OPENAI_API_KEY"], baseUrl: ["OPENAI_BASE_URL"] },
  gemini: { key: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrl: ["GOOGLE_GEMINI_BASE_URL"] },
};
