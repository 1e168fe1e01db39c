/**
 * AWF's `conversation:` sub-struct on agent steps: `{}` opts the step into session tracking,
 * `continue_from` names the earlier step whose session it resumes. A name that is not a state
 * is an error at its line with a did-you-mean; the keys AWF removed in F083 are named as
 * removed (ignoring them would mislead); a session of one provider is not resumed by another.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const wf = (recall: string, seedProvider = "claude") =>
  parseWorkflow(
    `name: s
states:
  initial: seed
  seed:
    type: agent
    provider: ${seedProvider}
    prompt: remember BANANA42
    conversation: {}
    on_success: recall
  recall:
    type: agent
    provider: claude
    prompt: what was the word?
${recall}
    on_success: done
  done:
    type: terminal
`,
    "s.yaml",
  );

describe("conversation: on agent steps", () => {
  it("reads the marker and continue_from", () => {
    const { workflow, errors } = wf("    conversation:\n      continue_from: seed");
    expect(errors).toEqual([]);
    const seed = workflow!.states.get("seed");
    const recall = workflow!.states.get("recall");
    expect(seed).toMatchObject({ kind: "agent", conversation: {} });
    expect(recall).toMatchObject({ kind: "agent", conversation: { continueFrom: "seed" } });
  });

  it("takes a bare `conversation:` as the marker too", () => {
    const { workflow, errors } = wf("    conversation:");
    expect(errors).toEqual([]);
    expect(workflow!.states.get("recall")).toMatchObject({ conversation: {} });
  });

  it("reports an unknown continue_from at its line with a did-you-mean", () => {
    const { errors } = wf("    conversation:\n      continue_from: sed");
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([
      ["WORKFLOW.VALIDATION.MISSING_STATE", 15],
    ]);
    expect(errors[0]!.message).toContain('state "sed" does not exist (did you mean "seed"?)');
    expect(errors[0]!.location?.path).toBe("states.recall.conversation.continue_from");
  });

  it("names the keys AWF removed in F083 instead of ignoring them", () => {
    const { errors } = wf("    conversation:\n      max_turns: 3\n      strategy: sliding_window");
    expect(errors.map((e) => [e.code, e.location?.path])).toEqual([
      ["WORKFLOW.PARSE.UNKNOWN_FIELD", "states.recall.conversation.max_turns"],
      ["WORKFLOW.PARSE.UNKNOWN_FIELD", "states.recall.conversation.strategy"],
    ]);
    expect(errors[0]!.message).toContain('"max_turns" was removed from "conversation"');
  });

  it("refuses an unknown key under conversation", () => {
    const { errors } = wf("    conversation:\n      continue: seed");
    expect(errors.map((e) => e.code)).toEqual(["WORKFLOW.PARSE.UNKNOWN_FIELD"]);
  });

  it("refuses resuming another provider's session", () => {
    const { errors } = wf("    conversation:\n      continue_from: seed", "gemini");
    expect(errors.map((e) => e.code)).toEqual(["WORKFLOW.VALIDATION.INVALID_VALUE"]);
    expect(errors[0]!.message).toContain("a gemini session cannot be resumed by claude");
  });

  it("refuses session tracking on a mode: conversation step, and a templated continue_from", () => {
    const chat = wf("    mode: conversation\n    conversation: {}");
    expect(chat.errors.map((e) => [e.code, e.location?.path])).toEqual([
      ["WORKFLOW.VALIDATION.INVALID_VALUE", "states.recall.conversation"],
    ]);
    const templated = wf('    conversation:\n      continue_from: "{{.inputs.step}}"');
    expect(templated.errors.map((e) => [e.code, e.location?.path])).toEqual([
      ["WORKFLOW.VALIDATION.INVALID_VALUE", "states.recall.conversation.continue_from"],
    ]);
  });
});
