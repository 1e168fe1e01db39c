import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { templateCompletion, type TemplateHint } from "./template-completion";

const TEMPLATES: TemplateHint[] = [
  {
    name: "greet",
    description: "says hello",
    parameters: [
      { name: "punctuation", required: false },
      { name: "who", required: true },
    ],
  },
  { name: "lint", description: "", parameters: [{ name: "paths", required: false }] },
];

/** The options offered with the cursor at "|", best first as the editor sorts them. */
const offered = (doc: string, explicit = true) => {
  const pos = doc.indexOf("|");
  const state = EditorState.create({ doc: doc.replace("|", "") });
  const result = templateCompletion(() => TEMPLATES)(new CompletionContext(state, pos, explicit));
  return [...(result?.options ?? [])]
    .sort((a, b) => (b.boost ?? 0) - (a.boost ?? 0))
    .map((o) => o.label);
};

const HEAD = "name: w\nstates:\n  initial: a\n  a:\n";

describe("template completion", () => {
  it("offers the team's template names after use_template", () => {
    expect(offered(`${HEAD}    use_template: g|`)).toEqual(["greet", "lint"]);
  });

  it("offers the chosen template's parameters under parameters, required first", () => {
    expect(offered(`${HEAD}    use_template: greet\n    parameters:\n      |`)).toEqual([
      "who",
      "punctuation",
    ]);
  });

  it("opens the parameters' list on typing only once a name is begun", () => {
    const under = `${HEAD}    use_template: greet\n    parameters:\n      `;
    expect(offered(`${under}|`, false)).toEqual([]);
    expect(offered(`${under}p|`, false)).toEqual(["who", "punctuation"]);
  });

  it("finds the template when use_template comes after parameters", () => {
    expect(offered(`${HEAD}    parameters:\n      |\n    use_template: lint\n`)).toEqual(["paths"]);
  });

  it("leaves out the parameters already given", () => {
    expect(
      offered(`${HEAD}    use_template: greet\n    parameters:\n      who: x\n      |`),
    ).toEqual(["punctuation"]);
  });

  it("offers nothing for an unknown template or outside parameters", () => {
    expect(offered(`${HEAD}    use_template: nope\n    parameters:\n      |`)).toEqual([]);
    expect(offered(`${HEAD}    use_template: greet\n    |`)).toEqual([]);
    expect(offered(`${HEAD}    use_template: greet\n    options:\n      |`)).toEqual([]);
  });
});
