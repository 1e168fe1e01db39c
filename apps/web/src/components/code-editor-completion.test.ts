import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { stateNamesOf, workflowCompletion } from "./code-editor-completion";

/** The labels offered with the cursor at "|". */
const offered = (doc: string) => {
  const pos = doc.indexOf("|");
  const state = EditorState.create({ doc: doc.replace("|", "") });
  return (
    workflowCompletion(new CompletionContext(state, pos, true))?.options.map((o) => o.label) ?? []
  );
};

const DOC = `name: w
inputs:
  - name: target
    ty|
states:
  initial: build
  build:
    type: step
    command: echo
    on_success: done
  done:
    type: terminal
`;

describe("workflow completion", () => {
  it("offers top-level keys at the top level", () => {
    expect(offered("name: w\nst|")).toContain("states");
  });

  it("offers a state's keys by its type", () => {
    const step = offered(
      DOC.replace("ty|", "type: string").replace("    command: echo", "    command: echo\n    on|"),
    );
    expect(step).toContain("on_failure");
    expect(step).toContain("command");
    expect(step).not.toContain("prompt");
    const agent = offered(
      DOC.replace("ty|", "type: string").replace(
        "type: step\n    command: echo",
        "type: agent\n    pro|",
      ),
    );
    expect(agent).toContain("prompt");
    expect(agent).toContain("provider");
  });

  it("offers input keys inside an inputs item, and input types for its type", () => {
    expect(offered(DOC)).toEqual(expect.arrayContaining(["type", "required", "validation"]));
    expect(offered(DOC.replace("ty|", "type: |"))).toEqual([
      "string",
      "integer",
      "number",
      "boolean",
      "array",
    ]);
  });

  it("offers state names where a state is named", () => {
    expect(stateNamesOf(DOC.split("\n"))).toEqual(["build", "done"]);
    expect(
      offered(DOC.replace("ty|", "type: string").replace("on_success: done", "on_success: |")),
    ).toEqual(["build", "done"]);
    expect(
      offered(DOC.replace("ty|", "type: string").replace("initial: build", "initial: b|")),
    ).toEqual(["build", "done"]);
    expect(
      offered(
        DOC.replace("ty|", "type: string").replace(
          "on_success: done",
          "transitions:\n      - goto: |",
        ),
      ),
    ).toEqual(["build", "done"]);
  });

  it("offers the values of keys with fixed values", () => {
    expect(offered(DOC.replace("ty|", "type: string").replace("type: step", "type: |"))).toContain(
      "parallel",
    );
  });

  it("offers transition keys inside a transitions item", () => {
    expect(
      offered(
        DOC.replace("ty|", "type: string").replace("on_success: done", "transitions:\n      - |"),
      ),
    ).toEqual(["when", "goto"]);
  });
});
