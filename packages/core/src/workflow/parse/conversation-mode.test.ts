/**
 * `mode: conversation` on an agent step (AWF's interactive loop, a chat on the run page here):
 * accepted with `prompt` as the first user message; `prompt_file` and the removed
 * `initial_prompt` are refused at their line.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const chat = (extra: string) =>
  parseWorkflow(
    `name: clarify\ninputs:\n  - name: topic\n    type: string\n    default: Go channels\nstates:\n  initial: chat\n  chat:\n    type: agent\n    provider: claude\n    mode: conversation\n${extra}    on_success: done\n  done: { type: terminal, status: success }\n`,
    "clarify.yaml",
  );

describe("mode: conversation", () => {
  it("is accepted with a prompt, a system prompt and a per-turn timeout", () => {
    const { workflow, errors } = chat(
      "    system_prompt: Ask one question at a time.\n    prompt: '{{.inputs.topic}}'\n    timeout: 600\n",
    );
    expect(errors).toEqual([]);
    const state = workflow!.states.get("chat") as {
      kind: string;
      mode?: string;
      timeoutMs?: number;
    };
    expect(state.kind).toBe("agent");
    expect(state.mode).toBe("conversation");
    expect(state.timeoutMs).toBe(600_000);
  });

  it("leaves single-mode steps as they were", () => {
    const { workflow } = parseWorkflow(
      `name: p\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: hi\n    on_success: done\n  done: { type: terminal }\n`,
      "p.yaml",
    );
    expect((workflow!.states.get("a") as { mode?: string }).mode).toBeUndefined();
  });

  it("needs a prompt: it is the first user message", () => {
    const { errors } = chat("");
    expect(errors.map((e) => e.message).join("\n")).toContain("prompt");
  });

  it("refuses prompt_file at its line", () => {
    const { errors } = chat("    prompt_file: prompts/chat.md\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('"prompt_file" is not allowed in conversation mode');
    expect(errors[0]!.location?.line).toBe(12);
  });

  it("refuses the removed initial_prompt, naming its replacement", () => {
    const { errors } = chat("    prompt: hi\n    initial_prompt: hello\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe("WORKFLOW.VALIDATION.INVALID_VALUE");
    expect(errors[0]!.message).toContain('"initial_prompt" was removed');
    expect(errors[0]!.message).toContain('use "prompt"');
    expect(errors[0]!.location?.line).toBe(13);
  });

  it("still refuses an unknown mode", () => {
    const bad = parseWorkflow(
      `name: p\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    mode: chat\n    prompt: hi\n    on_success: done\n  done: { type: terminal }\n`,
      "p.yaml",
    ).errors;
    expect(bad[0]!.message).toContain('"mode" must be single or conversation');
  });
});
