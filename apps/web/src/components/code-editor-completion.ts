/**
 * Completion for workflow YAML in the editor: keys where a key is being typed (from the
 * workflow language's vocabulary in core, by where the cursor is in the document), state
 * names where a state is named (on_success, goto, parallel, body, ...), and the fixed
 * values of keys such as type, strategy or provider. Reads the text line by line by
 * indentation, so it works while the document is half written and does not parse.
 */
import type { CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import {
  completionKeys,
  INPUT_TYPES,
  KEY_VALUES,
  STATE_REFERENCE_KEYS,
} from "@switchyard/core/workflow/vocabulary";

type Line = { indent: number; dash: boolean; key?: string; text: string };

const readLine = (text: string): Line => {
  const m = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)?\s*(:)?/.exec(text)!;
  return { indent: m[1]!.length, dash: m[2] !== undefined, key: m[4] ? m[3] : undefined, text };
};

const blank = (t: string) => /^\s*(#.*)?$/.test(t);

/** The keys leading to the mapping that holds a key at `indent` on line `at` ("#" for a list item). */
const pathAt = (
  lines: string[],
  at: number,
  indent: number,
  inItem: boolean,
  dashIndent: number,
): string[] => {
  const path: string[] = [];
  let want = indent;
  let afterItem = false;
  if (inItem) {
    path.push("#");
    want = dashIndent;
    afterItem = true;
  }
  for (let j = at - 1; j >= 0; j--) {
    const raw = lines[j]!;
    if (blank(raw)) continue;
    const l = readLine(raw);
    const keyIndent = l.dash
      ? l.indent + (raw.slice(l.indent).match(/^-\s+/)?.[0].length ?? 2)
      : l.indent;
    if (afterItem) {
      // the key that owns a list: less indented, or at the dash's indent and not an item itself
      if (l.indent < want || (l.indent === want && !l.dash)) {
        if (l.dash && l.key && keyIndent < want) {
          path.push(l.key, "#");
          want = l.indent;
          continue;
        }
        if (!l.key) return [];
        path.push(l.key);
        want = l.indent;
        afterItem = false;
      }
      continue;
    }
    if (l.dash && keyIndent === want) {
      // a sibling key in the same list item: the item starts here
      path.push("#");
      want = l.indent;
      afterItem = true;
      continue;
    }
    if (keyIndent < want || l.indent < want) {
      if (l.dash) {
        if (l.key && keyIndent < want) path.push(l.key);
        path.push("#");
        want = l.indent;
        afterItem = true;
        continue;
      }
      if (!l.key) return [];
      path.push(l.key);
      want = l.indent;
    }
  }
  return path.reverse();
};

/** The names under `states:` (its direct children, `initial` excluded). */
export const stateNamesOf = (lines: string[]): string[] => {
  const start = lines.findIndex((t) => /^states\s*:/.test(t));
  if (start < 0) return [];
  const names: string[] = [];
  let childIndent: number | undefined;
  for (let j = start + 1; j < lines.length; j++) {
    const raw = lines[j]!;
    if (blank(raw)) continue;
    const l = readLine(raw);
    if (l.indent === 0) break;
    childIndent ??= l.indent;
    if (l.indent === childIndent && l.key && l.key !== "initial") names.push(l.key);
  }
  return names;
};

/** The `type` of the state of that name. */
const stateTypeAt = (lines: string[], name: string): string | undefined => {
  const start = lines.findIndex((t) =>
    new RegExp(`^\\s+${name.replace(/[-]/g, "\\-")}\\s*:`).test(t),
  );
  if (start < 0) return undefined;
  const own = readLine(lines[start]!).indent;
  const inline = /type\s*:\s*([\w]+)/.exec(lines[start]!.slice(lines[start]!.indexOf(":") + 1));
  if (inline) return inline[1];
  for (let j = start + 1; j < lines.length; j++) {
    if (blank(lines[j]!)) continue;
    const l = readLine(lines[j]!);
    if (l.indent <= own) break;
    const m = /^\s*type\s*:\s*([\w]+)/.exec(lines[j]!);
    if (m) return m[1];
  }
  return undefined;
};

const REFS = new Set<string>(STATE_REFERENCE_KEYS);

export const workflowCompletion = (context: CompletionContext): CompletionResult | null => {
  const { state, pos } = context;
  const line = state.doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const lines = state.doc.toString().split("\n");
  const at = line.number - 1;

  // A value: `key: partial`, `key: [a, partial`, or `- partial` under a list of state names.
  const value = /^(\s*)(?:-\s+)?([A-Za-z_][\w-]*)\s*:\s*(?:\[(?:[^\]]*,)?\s*)?([\w-]*)$/.exec(
    before,
  );
  const item = /^(\s*)-\s+([\w-]*)$/.exec(before);
  if (value || item) {
    let key = value?.[2];
    let word = value?.[3] ?? item?.[2] ?? "";
    if (item && !value) {
      const dashIndent = item[1]!.length;
      for (let j = at - 1; j >= 0; j--) {
        if (blank(lines[j]!)) continue;
        const l = readLine(lines[j]!);
        if (l.indent < dashIndent || (l.indent === dashIndent && !l.dash)) {
          key = l.key;
          break;
        }
      }
      word = item[2] ?? "";
    }
    if (key) {
      const path = value
        ? pathAt(
            lines,
            at,
            value[1]!.length + (before.trimStart().startsWith("-") ? 2 : 0),
            false,
            0,
          )
        : [];
      let options: readonly string[] | undefined;
      if (REFS.has(key)) options = stateNamesOf(lines);
      else if (key === "type" && path[0] === "inputs") options = INPUT_TYPES;
      else options = KEY_VALUES[key];
      if (options && (value || REFS.has(key))) {
        return {
          from: pos - word.length,
          options: options.map((label) => ({ label, type: REFS.has(key) ? "variable" : "enum" })),
          validFor: /^[\w-]*$/,
        };
      }
    }
    if (value) return null;
  }

  // A key being typed at the start of a line (or after "- ").
  const keyMatch = /^(\s*)(-\s+)?([\w-]*)$/.exec(before);
  if (!keyMatch) return null;
  const word = keyMatch[3] ?? "";
  if (word === "" && !context.explicit) return null;
  const dashIndent = keyMatch[1]!.length;
  const indent = dashIndent + (keyMatch[2]?.length ?? 0);
  const path = pathAt(lines, at, indent, keyMatch[2] !== undefined, dashIndent);
  const stateType =
    path[0] === "states" && path[1] !== undefined ? stateTypeAt(lines, path[1]) : undefined;
  const keys = completionKeys(path, stateType);
  if (keys.length === 0) return null;
  return {
    from: pos - word.length,
    options: keys.map((label) => ({ label, type: "property", apply: `${label}: ` })),
    validFor: /^[\w-]*$/,
  };
};
