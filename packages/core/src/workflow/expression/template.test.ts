/**
 * Interpolation: namespaces, helpers and, for shell commands, hostile values that stay
 * one literal word in every quoting context, the variables values travel in, and escape,
 * whose output a real nested shell reads back as the value.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
    expect(script).toBe(`echo "\${SY_INPUTS_NAME}" ''"\${SY_INPUTS_NAME}"''`);
    expect(vars).toEqual({ SY_INPUTS_NAME: "world" });
  });

  it("reads quotes inside $( ) and here-documents as the shell does", () => {
    expect(sh(`printf '%s|' "$(printf '%s' '{{.inputs.x}}')"`)).toBe(`${hostile}|`);
    expect(sh("cat <<EOF\nit's {{.inputs.x}}\nEOF")).toBe(`it's ${hostile}\n`);
    expect(sh("cat <<'EOF'\n{{.inputs.x}}\nEOF")).toBe('"${SY_INPUTS_X}"\n');
  });

  it("lets a number be arithmetic", () => {
    const { script, env: vars } = renderShell("echo $(( {{.inputs.n}} * 2 ))", {
      ...env,
      resolve: () => 3,
    });
    expect(execFileSync("/bin/sh", ["-c", script], { env: vars }).toString()).toBe("6\n");
    expect(() =>
      renderShell("echo $(( {{.inputs.n}} * 2 ))", { ...env, resolve: () => "a[$(id)]" }),
    ).toThrow(/USER|arithmetic/);
  });
});

describe("variables and nested shells", () => {
  const values: Record<string, unknown> = {
    "inputs.msg": "hi",
    "inputs.a-b": "dash",
    "inputs.a_b": "underscore",
    "states.build.ExitCode": 2,
  };
  const scope = {
    resolve: (parts: string[]) => values[parts.join(".")],
    readFile: () => undefined,
    paths: () => [
      ["inputs", "msg"],
      ["inputs", "a-b"],
      ["inputs", "a_b"],
      ["states", "build", "ExitCode"],
    ],
  };

  it("names each value's variable after its path, fields without underscores, clashes apart", () => {
    const { env: vars } = renderShell(
      "echo {{.states.build.exit_code}} {{.states.build.ExitCode}} {{.inputs.a_b}} {{.inputs.a-b}}",
      scope,
    );
    expect(vars).toEqual({
      SY_STATES_BUILD_EXITCODE: "2",
      SY_INPUTS_A_B: "dash",
      SY_INPUTS_A_B_2: "underscore",
    });
  });

  it("sets a variable the command only names, and no other", () => {
    const { env: vars } = renderShell(`sh -c 'echo "$SY_INPUTS_MSG"'`, scope);
    expect(vars).toEqual({ SY_INPUTS_MSG: "hi" });
  });

  it("refuses a value pasted into a second shell when it renders, with line and column", () => {
    expect(() => renderShell("true\nsh -c 'echo {{.inputs.msg}}'", scope)).toThrow(
      expect.objectContaining({
        code: "USER.TEMPLATE.NESTED_SHELL",
        location: { line: 2, column: 13 },
      }),
    );
  });

  it("refuses {{ }} in a script that is not shell, and passes the variables it names", () => {
    expect(() =>
      renderShell("#!/usr/bin/env python3\nprint('{{.inputs.msg}}')\n", scope, {
        script: true,
        file: "s.py",
      }),
    ).toThrow(
      expect.objectContaining({
        code: "USER.TEMPLATE.NESTED_SHELL",
        location: { file: "s.py", line: 2, column: 8 },
      }),
    );
    const { env: vars } = renderShell(
      "#!/usr/bin/env python3\nimport os\nprint(os.environ['SY_INPUTS_MSG'])\n",
      scope,
      { script: true },
    );
    expect(vars).toEqual({ SY_INPUTS_MSG: "hi" });
  });

  describe("escape: a value quoted for one more shell", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "escape-"));
    const hostiles = [
      "it's",
      "'",
      "$(touch pwned1)",
      "`touch pwned2`",
      "a\nb; touch pwned3",
      ";",
      '"; touch pwned4; "',
      "\\",
      "",
      "*",
      "#x",
      "~",
      "-n",
      "a b\tc",
      "${HOME}",
      "x'\\''y",
    ];
    const commands = [
      `sh -c "printf '%s|' {{escape .inputs.x}}"`,
      `sh -c 'printf "%s|" '{{escape .inputs.x}}`,
      `bash -c 'printf "%s|" {{shellQuote .inputs.x}}'`,
      `eval "printf '%s|' {{escape .inputs.x}}"`,
      `sh -c 'sh -c "printf %s\\| "{{escape (escape .inputs.x)}}'`,
    ];
    it.each(commands)("%s prints every hostile value literally", (command) => {
      for (const value of hostiles) {
        const { script, env: vars } = renderShell(command, {
          resolve: () => value,
          readFile: () => undefined,
        });
        const out = execFileSync("/bin/sh", ["-c", script], {
          cwd: dir,
          env: { PATH: "/usr/bin:/bin", HOME: "/nowhere", ...vars },
        }).toString();
        expect({ value, out }).toEqual({ value, out: `${value}|` });
      }
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});
