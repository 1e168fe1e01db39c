/**
 * Interpolation: namespaces, helpers and, for shell commands, hostile values that stay
 * one literal word in every quoting context.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseTemplate, renderShell, renderTemplate } from "./template";

const values: Record<string, unknown> = {
  "inputs.name": "world",
  "inputs.list": ["x", "y"],
  "states.s.Output": " a, b ,c ",
};
const env = {
  resolve: (parts: string[]) => values[parts.join(".")],
  readFile: (p: string) => (p === "notes.md" ? "NOTES" : undefined),
};

describe("plain rendering", () => {
  it("accepts the dotted and undotted forms and spaces", () => {
    expect(renderTemplate("{{.inputs.name}} {{inputs.name}} {{ .inputs.name }}", env)).toBe(
      "world world world",
    );
  });
  it("renders arrays as JSON and missing values as empty text", () => {
    expect(renderTemplate("[{{.inputs.list}}] [{{.inputs.nope}}]", env)).toBe('[["x","y"]] []');
  });
  it("runs the helpers split, join, trimSpace and readFile", () => {
    expect(renderTemplate('{{ join (split .states.s.Output ",") "|" }}', env)).toBe(" a| b |c ");
    expect(renderTemplate("{{trimSpace .states.s.Output}}", env)).toBe("a, b ,c");
    expect(renderTemplate('{{readFile "notes.md"}}{{readFile "missing.md"}}', env)).toBe("NOTES");
  });
  it("rejects Go template actions it does not support", () => {
    expect(() => parseTemplate("{{range .inputs.list}}x{{end}}")).toThrow(/range/);
    expect(() => parseTemplate("{{.inputs.name")).toThrow(/unclosed/);
  });
});

describe("shell rendering", () => {
  const hostile = `'; echo PWNED; ' "$(echo PWNED)" \`echo PWNED\` $HOME \\ *`;
  const sh = (command: string) => {
    const { script, env: vars } = renderShell(command, { ...env, resolve: () => hostile });
    return execFileSync("/bin/sh", ["-c", script], {
      env: { PATH: "/usr/bin:/bin", ...vars },
    }).toString();
  };

  it("keeps a hostile value one literal word in every quoting context", () => {
    expect(sh("printf '%s|' {{.inputs.x}}")).toBe(`${hostile}|`);
    expect(sh(`printf '%s|' "pre {{.inputs.x}} post"`)).toBe(`pre ${hostile} post|`);
    expect(sh("printf '%s|' 'pre {{.inputs.x}} post'")).toBe(`pre ${hostile} post|`);
    expect(sh("echo {{.inputs.x}} | wc -l")).toBe("1\n");
  });

  it("ignores quotes inside comments", () => {
    expect(sh("# don't trip on this\nprintf '%s|' {{.inputs.x}} # it's fine {{.inputs.x}}")).toBe(
      `${hostile}|`,
    );
  });

  it("never puts the value into the script text", () => {
    const { script, env: vars } = renderShell("echo {{.inputs.name}} '{{.inputs.name}}'", env);
    expect(script).toBe(`echo "\${SWITCHYARD_V1}" ''"\${SWITCHYARD_V2}"''`);
    expect(vars).toEqual({ SWITCHYARD_V1: "world", SWITCHYARD_V2: "world" });
  });
});
