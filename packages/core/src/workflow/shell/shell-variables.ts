/**
 * The environment variable each interpolated value travels in: SY_ and the value's path in
 * capitals, with `.` and any character other than a letter or digit written `_`, and the
 * fields of states, loops, workflow and error without their underscores
 * (`{{.inputs.msg}}` → SY_INPUTS_MSG, `{{.states.build.exit_code}}` → SY_STATES_BUILD_EXITCODE).
 * Two paths that give the same name keep it apart with a suffix (`_2`), first come first.
 */
import { normaliseField } from "../model/state-fields";

const LOOP_FIELDS = new Set(["parent", "item", "index", "index1", "first", "last", "length"]);

const isField = (parts: string[], i: number): boolean => {
  const ns: string = parts[0] ?? "";
  switch (ns) {
    case "states":
      return i === 2;
    case "workflow":
    case "error":
      return i === 1;
    case "loop":
      return (
        i >= 1 &&
        parts.slice(1, i).every((p) => normaliseField(p) === "parent") &&
        LOOP_FIELDS.has(normaliseField(parts[i]!))
      );
    default:
      return false;
  }
};

const canonical = (parts: string[]) =>
  parts.map((p, i) => (isField(parts, i) ? normaliseField(p) : p));

/** The variable a path's value travels in, before any suffix for a clash. */
export const variableOf = (parts: string[]): string =>
  `SY_${canonical(parts)
    .map((p) => p.toUpperCase().replace(/[^A-Z0-9]/g, "_"))
    .join("_")}`;

/** Names for the paths of one command, each path one name, each name one path. */
export class ShellVariables {
  private readonly byPath = new Map<string, string>();
  private readonly taken = new Set<string>();

  name(parts: string[]): string {
    const key = canonical(parts).join("\u0000");
    const known = this.byPath.get(key);
    if (known) return known;
    const base = variableOf(parts);
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
    this.byPath.set(key, name);
    this.taken.add(name);
    return name;
  }
}
