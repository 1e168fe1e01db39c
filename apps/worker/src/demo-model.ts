/**
 * The built-in demo model: a loopback OpenAI-compatible endpoint the worker starts when
 * SWITCHYARD_DEMO_MODEL_PORT is set, so Switchyard can be tried without a vendor key. It is
 * no model: it plays one recorded agent session (write notes, read them back, ask the demo
 * connector to count them, write a report, sum up), the same for every conversation, each
 * from its own place in it. The seed allows it for the demo team's openai_compatible steps
 * and its demo workflow names it; nothing else uses it unless a workflow chooses it.
 *
 * The one module of the product that may import the scripted model (see
 * test/production-imports.test.ts): the recording is a script of it.
 */
import { startScriptedModel, type ScriptInput } from "@switchyard/scripted-model";

/** The model name the demo workflow gives, priced at zero. */
const DEMO_MODEL_NAME = "switchyard-demo";

const NOTES = `# Demo notes

- Written by the demo agent with the Write tool, in the run's own workspace.
- The model is Switchyard's demo model: a recorded session, no key, no cost.
- Each tool call shows on the run page with its arguments, result and span.
`;

const words = NOTES.split(/\s+/).filter(Boolean).length;

const REPORT = `# Demo report

The agent wrote notes.md, read it back, and asked the demo connector's text_stats tool to
count it: ${words} words.

Next: give your team a model key (Settings → Models), add a connector (Connectors), and
write a workflow of your own (Workflows → New).
`;

/** The recorded session, turn by turn (Chat Completions tool names as the step offers them). */
const SESSION: ScriptInput = {
  turns: [
    {
      label: "write the notes",
      text: "I will write a few notes into the workspace first.",
      toolCalls: [{ name: { suffix: "Write" }, arguments: { path: "notes.md", content: NOTES } }],
    },
    {
      label: "read them back",
      text: "Now I read the file back to check what was written.",
      toolCalls: [{ name: { suffix: "Read" }, arguments: { path: "notes.md" } }],
    },
    {
      label: "count them with the demo connector",
      text: "The demo connector can count words: I ask it about the notes.",
      toolCalls: [{ name: { suffix: "text_stats" }, arguments: { text: NOTES } }],
    },
    {
      label: "write the report",
      text: "I write what I found into a report.",
      toolCalls: [{ name: { suffix: "Write" }, arguments: { path: "report.md", content: REPORT } }],
    },
    {
      label: "sum up",
      text: `Done. I wrote notes.md, read it back, counted it with the demo connector (${words} words) and wrote report.md. This was Switchyard's demo model playing a recorded session; choose a real model in Settings → Models.`,
    },
  ],
};

type Log = (level: "info" | "warn", message: string, fields?: Record<string, unknown>) => void;

/**
 * Starts the demo model on 127.0.0.1:`port`; undefined when the port is taken (another
 * worker of this host serves it, which is as good).
 */
export const startDemoModel = async (port: number, log: Log) => {
  try {
    const model = await startScriptedModel({
      script: SESSION,
      port,
      host: "127.0.0.1",
      turnBy: "conversation",
      keepRequests: false,
    });
    log("info", "demo model ready", { url: `${model.url}/v1`, model: DEMO_MODEL_NAME });
    return model;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    log("warn", "the demo model's port is taken; leaving it to whatever listens there", { port });
    return undefined;
  }
};
