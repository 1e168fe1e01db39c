/**
 * Completion for `use_template` in the workflow editor: the team's template names after
 * `use_template:`, and the chosen template's parameters (those not yet given, required ones
 * first) as keys under the state's `parameters:`. Reads lines by indentation, like the
 * vocabulary completion beside it.
 */
import type { CompletionContext, CompletionResult } from "@codemirror/autocomplete";

export type TemplateHint = {
  name: string;
  description: string;
  parameters: { name: string; required: boolean }[];
};

const indentOf = (t: string) => /^\s*/.exec(t)![0].length;
const blank = (t: string) => /^\s*(#.*)?$/.test(t);

/** The template named by the `use_template` beside the `parameters:` at line `p`. */
const templateBeside = (lines: string[], p: number): string | undefined => {
  const own = indentOf(lines[p]!);
  const sibling = (j: number) => {
    const m = /^\s*use_template\s*:\s*["']?([\w-]+)/.exec(lines[j]!);
    return indentOf(lines[j]!) === own ? m?.[1] : undefined;
  };
  for (const step of [-1, 1]) {
    for (let j = p + step; j >= 0 && j < lines.length; j += step) {
      if (blank(lines[j]!)) continue;
      if (indentOf(lines[j]!) < own) break;
      const found = sibling(j);
      if (found) return found;
    }
  }
  return undefined;
};

export const templateCompletion =
  (templates: () => readonly TemplateHint[]) =>
  (context: CompletionContext): CompletionResult | null => {
    const { state, pos } = context;
    const line = state.doc.lineAt(pos);
    const before = line.text.slice(0, pos - line.from);
    const named = /^\s*use_template\s*:\s*([\w-]*)$/.exec(before);
    if (named) {
      return {
        from: pos - named[1]!.length,
        options: templates().map((t) => ({
          label: t.name,
          type: "class",
          detail: t.parameters.map((p) => p.name).join(", "),
          info: t.description || undefined,
        })),
        validFor: /^[\w-]*$/,
      };
    }
    const key = /^(\s+)([\w-]*)$/.exec(before);
    // Indenting (a typed space) opens no list, as for the vocabulary's keys: a name's first letter or Ctrl-Space does.
    if (!key || (key[2] === "" && !context.explicit)) return null;
    const lines = state.doc.toString().split("\n");
    const at = line.number - 1;
    const indent = key[1]!.length;
    let owner = -1;
    for (let j = at - 1; j >= 0; j--) {
      if (blank(lines[j]!)) continue;
      if (indentOf(lines[j]!) < indent) {
        owner = j;
        break;
      }
    }
    if (owner < 0 || !/^\s*parameters\s*:\s*$/.test(lines[owner]!)) return null;
    const chosen = templateBeside(lines, owner);
    const template = templates().find((t) => t.name === chosen);
    if (!template) return null;
    const given = new Set<string>();
    for (let j = owner + 1; j < lines.length; j++) {
      if (j === at || blank(lines[j]!)) continue;
      if (indentOf(lines[j]!) <= indentOf(lines[owner]!)) break;
      const m = /^\s*([\w-]+)\s*:/.exec(lines[j]!);
      if (m) given.add(m[1]!);
    }
    return {
      from: pos - key[2]!.length,
      options: template.parameters
        .filter((p) => !given.has(p.name))
        .map((p) => ({
          label: p.name,
          type: "property",
          detail: p.required ? "required" : "optional",
          boost: p.required ? 1 : 0,
          apply: `${p.name}: `,
        })),
      validFor: /^[\w-]*$/,
    };
  };
