/**
 * The workflows and model script the fault-injection tests run: shell steps that take a
 * while, and an openai_compatible agent step whose scripted model asks for a number of Bash
 * calls (each prints tick-<n>) before it answers. The script is stateless (it answers from
 * the ticks already in the conversation), so an attempt started again after a fault plays
 * the same conversation, and many runs can share one model.
 */
import { openAiAgentState } from "./agent-workflow";

/** Rules for the scripted model: `calls` Bash calls of about `toolMs`, a reply every `delayMs`. */
export const tickRules = (calls: number, delayMs = 300, toolMs = 400) => [
  { match: { messagesContain: `tick-${calls}` }, delayMs, text: "all ticks done" },
  ...Array.from({ length: calls }, (_, i) => calls - 1 - i).map((n) => ({
    // The call's argument does not contain "tick-<n>", its result does.
    match: { messagesContain: n === 0 ? "CHAOS-" : `tick-${n}` },
    delayMs,
    toolCalls: [
      { name: "Bash", arguments: { command: `sleep ${toolMs / 1000}; printf 'tick-%s' ${n + 1}` } },
    ],
  })),
];

/** A marker for one run's prompt; its conversations are found by it (conversationsOf). */
export const chaosMarker = (tag: string) => `CHAOS-${tag}`;

/** Shell steps in a row, each sleeping `stepMs`. */
export const shellWorkflow = (name: string, steps = 3, stepMs = 700) => `name: ${name}
states:
  initial: s1
${Array.from({ length: steps }, (_, i) => `  s${i + 1}: { type: step, command: "sleep ${stepMs / 1000}; echo s${i + 1}", on_success: ${i + 1 === steps ? "done" : `s${i + 2}`} }\n`).join("")}  done: { type: terminal }
`;

/** An agent step prompted with the run's marker (input `tag`), then a shell step. */
export const agentWorkflow = (name: string, modelUrl: string) => `name: ${name}
inputs:
  - name: tag
    type: string
    required: true
states:
  initial: agent
${openAiAgentState(modelUrl, '"CHAOS-{{.inputs.tag}}"', "after")}  after:
    type: step
    command: echo after
    on_success: done
  done: { type: terminal }
`;
