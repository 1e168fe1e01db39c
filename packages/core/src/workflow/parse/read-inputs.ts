/**
 * Reads `inputs` (typed parameters with defaults and validation rules) and `outputs`. AWF's
 * interactive input collection needs no key of its own: a required input not given is asked
 * for (docs/workflows.md, "Interactive inputs"), so any other key is an unknown one.
 */
import type { InputDefinition, InputType, OutputDefinition } from "../model/workflow-types";
import { INPUT_KEYS, INPUT_TYPES, INPUT_VALIDATION_KEYS, OUTPUT_KEYS } from "./vocabulary";
import { codes, type YamlReader } from "./yaml-reader";

export const readInputs = (root: YamlReader): InputDefinition[] => {
  const out: InputDefinition[] = [];
  const seen = new Set<string>();
  for (const { node, path } of root.seq("inputs") ?? []) {
    const r = root.child(node, path);
    if (!r) continue;
    r.checkKeys(INPUT_KEYS);
    const name = r.str("name", true);
    if (name === undefined) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      r.error(codes.invalid, `input name "${name}" must be an identifier`, "name");
    if (seen.has(name)) r.error(codes.invalid, `input "${name}" is defined twice`, "name");
    seen.add(name);
    const type: InputType = r.oneOf("type", INPUT_TYPES, "string") ?? "string";
    const v = r.map("validation");
    v?.checkKeys(INPUT_VALIDATION_KEYS);
    const pattern = v?.str("pattern");
    if (pattern !== undefined) {
      try {
        new RegExp(pattern);
      } catch {
        v!.error(codes.invalid, `"pattern" is not a valid regular expression`, "pattern");
      }
    }
    const enumNode = v?.raw("enum");
    const defaultNode = r.raw("default");
    out.push({
      name,
      type,
      required: r.bool("required", false),
      default: defaultNode === undefined ? undefined : (defaultNode.toJSON() as unknown),
      description: r.str("description"),
      validation: {
        pattern,
        enum: enumNode ? (v!.seq("enum") ?? []).map((i) => i.node.toJSON() as unknown) : undefined,
        min: v?.num("min"),
        max: v?.num("max"),
        fileExists: v?.bool("file_exists", false) || undefined,
        fileExtension: v?.strList("file_extension"),
      },
    });
  }
  return out;
};

export const readOutputs = (root: YamlReader): OutputDefinition[] => {
  const out: OutputDefinition[] = [];
  for (const { node, path } of root.seq("outputs") ?? []) {
    const r = root.child(node, path);
    if (!r) continue;
    r.checkKeys(OUTPUT_KEYS);
    const name = r.str("name", true);
    const from = r.str("from", true);
    if (name !== undefined && from !== undefined) out.push({ name, from });
  }
  return out;
};
