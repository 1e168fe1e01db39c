/**
 * Reads a template file (AWF's `.awf/templates/<name>.yaml`): its name, its parameters
 * (name, required, default) and the state it stands for, with every problem placed at its
 * line. `{{parameters.x}}` naming no declared parameter is an error here, not at use.
 */
import { LineCounter, isMap, isScalar, parseDocument } from "yaml";
import { AppError } from "../../errors/app-error";
import { suggestName } from "./suggest-name";
import { YamlReader, codes, report, sourceOf, type Diagnostics } from "./yaml-reader";
import { parameterRefs } from "./substitute-parameters";

export type TemplateParameter = { name: string; required: boolean; default?: unknown };

type StepTemplate = {
  name: string;
  parameters: TemplateParameter[];
  /** the state's name in the template file */
  stateName: string;
  /** the state as plain data, `{{parameters.x}}` still in it */
  state: Record<string, unknown>;
};

export type TemplateReadResult = { template?: StepTemplate; errors: AppError[] };

const MAX_TEMPLATE_BYTES = 256 * 1024;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const TEMPLATE_KEYS = ["name", "description", "parameters", "states"] as const;
const PARAMETER_KEYS = ["name", "required", "default", "description"] as const;

const readParameters = (root: YamlReader): TemplateParameter[] => {
  const out: TemplateParameter[] = [];
  for (const { node, path } of root.seq("parameters") ?? []) {
    const r = root.child(node, path);
    if (!r) continue;
    r.checkKeys(PARAMETER_KEYS);
    const name = r.str("name", true);
    if (name === undefined) continue;
    if (!PARAMETER_NAME.test(name)) {
      r.error(codes.invalid, `parameter name "${name}" must use letters, digits, _ or -`, "name");
      continue;
    }
    if (out.some((p) => p.name === name)) {
      r.error(codes.invalid, `parameter "${name}" is declared twice`, "name");
      continue;
    }
    const raw = r.raw("default");
    out.push({
      name,
      required: r.bool("required", false),
      ...(raw === undefined ? {} : { default: isScalar(raw) ? raw.value : raw.toJSON() }),
    });
  }
  return out;
};

/** Every string in a state, with the YAML path it sits at. */
const stringsOf = (value: unknown, path: string, out: { text: string; path: string }[] = []) => {
  if (typeof value === "string") out.push({ text: value, path });
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) stringsOf(v, `${path}.${k}`, out);
  return out;
};

export const readTemplateFile = (source: string, file: string): TemplateReadResult => {
  const at = (message: string) =>
    new AppError("WORKFLOW.TEMPLATE.INVALID", message, {
      location: { file, path: "$", line: 1, column: 1 },
    });
  if (source.length > MAX_TEMPLATE_BYTES)
    return { errors: [at(`${file} is larger than ${MAX_TEMPLATE_BYTES} bytes`)] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, strict: true });
  const diag: Diagnostics = { file, errors: [], warnings: [], lineCounter, doc, source };
  for (const e of doc.errors) {
    const pos = lineCounter.linePos(e.pos[0]);
    diag.errors.push(
      new AppError("WORKFLOW.PARSE.YAML_SYNTAX", e.message.split("\n")[0] ?? e.message, {
        location: { file, path: "$", line: pos.line, column: pos.col },
      }),
    );
  }
  if (diag.errors.length > 0) return { errors: diag.errors };
  if (!isMap(doc.contents))
    return { errors: [at("a template must be a mapping with name, parameters and states")] };
  let json: unknown;
  try {
    json = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { errors: [at(error instanceof Error ? error.message : String(error))] };
  }
  const root = new YamlReader(diag, doc.contents, "");
  root.checkKeys(TEMPLATE_KEYS);
  const name = root.str("name", true);
  if (name !== undefined && !PARAMETER_NAME.test(name))
    root.error(codes.invalid, `template name "${name}" must use letters, digits, _ or -`, "name");
  const parameters = readParameters(root);
  const states = root.map("states", true);
  const stateNames = states?.keys() ?? [];
  const stateName = stateNames.length === 1 ? stateNames[0] : stateNames.find((s) => s === name);
  if (states && stateName === undefined)
    states.error(
      codes.invalid,
      `a template defines one state, or several with one named "${name ?? ""}" (the one it expands to)`,
    );
  const stateValue =
    stateName === undefined
      ? undefined
      : (json as { states: Record<string, unknown> }).states[stateName];
  if (
    stateName !== undefined &&
    (!stateValue || typeof stateValue !== "object" || Array.isArray(stateValue))
  )
    states?.error(codes.invalid, `state "${stateName}" must be a mapping`, stateName);
  const declared = parameters.map((p) => p.name);
  if (stateName !== undefined && stateValue && typeof stateValue === "object")
    for (const { text, path } of stringsOf(stateValue, `states.${stateName}`))
      for (const ref of parameterRefs(text))
        if (!declared.includes(ref)) {
          const hint = suggestName(ref, declared);
          report(
            diag,
            "error",
            "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER",
            `template '${name ?? ""}' uses undeclared parameter '${ref}'${hint ? ` (did you mean '${hint}'?)` : ""}`,
            sourceOf(
              diag,
              doc.getIn(path.split(/\.|\[(\d+)\]/).filter(Boolean), true) as never,
              path,
            ),
          );
        }
  if (diag.errors.length > 0 || name === undefined || stateName === undefined)
    return { errors: placed(diag) };
  return {
    template: { name, parameters, stateName, state: stateValue as Record<string, unknown> },
    errors: [],
  };
};

/** Every problem with a line: its own, or the first line. */
const placed = (diag: Diagnostics) =>
  diag.errors.map((e) =>
    e.location?.line !== undefined
      ? e
      : new AppError(e.code, e.message, {
          location: { file: diag.file, path: e.location?.path ?? "$", line: 1, column: 1 },
        }),
  );
