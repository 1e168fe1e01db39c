/**
 * For tests that run one short agent step per provider (the worker's and `switchyard run`'s
 * paths at a given sandbox level): each provider's row (the CLI, the vendor whose key and
 * endpoint it takes, a model, how it names the proxy's tools), the script in which the
 * model asks for Write, then Read, through the step's proxy, and the workflow around it,
 * whose next state echoes the answer.
 */
import { stepBaseUrl, type Vendor } from "@switchyard/core/gateway";
import { CLI_PROVIDERS, type AgentId } from "@switchyard/core/providers";
import { CLI_ROWS } from "./cli-rows";

export type ProviderRow = {
  provider: string;
  /** The CLI it runs from the agents folder and the vendor of its model; neither for openai_compatible. */
  agent?: AgentId;
  vendor?: Vendor;
  model: string;
  /** The vendor's endpoint (openai_compatible: the step's `base_url`) for a model server at `url`. */
  endpoint: (url: string) => string;
  /** A proxy tool's name as the model sees it. */
  tool: (name: string) => string;
};

/** The four CLIs' rows from CLI_ROWS, then openai_compatible (the worker's own loop). */
export const PROVIDER_ROWS: readonly ProviderRow[] = [
  ...CLI_ROWS.map((row): ProviderRow => {
    const { vendor } = CLI_PROVIDERS[row.agent]!.cli;
    return {
      provider: row.agent,
      agent: row.agent,
      vendor,
      model: row.model,
      endpoint: (u) => stepBaseUrl(vendor, u),
      tool: row.tool,
    };
  }),
  {
    provider: "openai_compatible",
    model: "scripted-1",
    endpoint: (u) => `${u}/v1`,
    tool: (n) => n,
  },
];

/** What the step writes to notes/hi.txt and reads back. */
export const writtenBy = (row: ProviderRow) => `hi from ${row.provider}\n`;

/** The answer the step gives once it read the file back. */
export const WRITE_READ_ANSWER = "read it back";

/** The model's turns: Write notes/hi.txt (the first request offers Write and Read), Read it, answer. */
export const writeReadTurns = (row: ProviderRow) => [
  {
    expect: { toolOffered: [row.tool("Write"), row.tool("Read")] },
    toolCalls: [
      { name: row.tool("Write"), arguments: { path: "notes/hi.txt", content: writtenBy(row) } },
    ],
  },
  {
    expect: { lastToolResultContains: "notes/hi.txt" },
    toolCalls: [{ name: row.tool("Read"), arguments: { path: "notes/hi.txt" } }],
  },
  { expect: { lastToolResultContains: writtenBy(row).trim() }, text: WRITE_READ_ANSWER },
];

/**
 * The workflow `name`: the agent step against a model server at `url` (`options` added to
 * its own), then `echo` printing `answer=<its output>`.
 */
export const writeReadWorkflow = (
  name: string,
  row: ProviderRow,
  url: string,
  options: Record<string, string> = {},
) => {
  const all = {
    model: row.model,
    ...(row.vendor ? {} : { base_url: row.endpoint(url) }),
    ...options,
  };
  return `name: ${name}
states:
  initial: agent
  agent:
    type: agent
    provider: ${row.provider}
    prompt: Write notes/hi.txt, read it back and answer.
    options: ${JSON.stringify(all)}
    timeout: 3m
    on_success: echo
  echo:
    type: step
    command: echo "answer={{.states.agent.Output}}"
    on_success: done
  done: { type: terminal }
`;
};
