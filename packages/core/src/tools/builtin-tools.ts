/**
 * The six built-ins (Read, Write, Edit, Bash, Glob, Grep) as one ToolProvider, confined to
 * the step's workspace. Arguments are validated here; every failure, refused path included,
 * comes back as an `isError` result the model can read, never as a protocol error.
 */
import { ToolGate } from "./tool-gate";
import { z } from "zod";
import { bashArgs, BASH_DESCRIPTION, runBash } from "./builtin-bash";
import { editArgs, EDIT_DESCRIPTION, editFile } from "./builtin-edit";
import { globArgs, GLOB_DESCRIPTION, globFiles, type GlobOptions } from "./builtin-glob";
import { grepArgs, GREP_DESCRIPTION, grepFiles, type GrepOptions } from "./builtin-grep";
import { readArgs, READ_DESCRIPTION, readFile } from "./builtin-read";
import { writeArgs, WRITE_DESCRIPTION, writeFileTool } from "./builtin-write";
import { PathRefused, type Confinement } from "./confine-path";
import type { ShellRunner } from "./shell-runner";
import {
  toolError,
  type JsonObject,
  type ToolCallContext,
  type ToolDescriptor,
  type ToolProvider,
  type ToolResult,
} from "./tool-provider";

/** The names of the built-in tools. */
export const BUILTIN_NAMES = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"] as const;
type BuiltinName = (typeof BUILTIN_NAMES)[number];

type BuiltinToolsDeps = {
  confinement: Confinement;
  shell: ShellRunner;
  /** The environment Bash commands get (an allow-list chosen by the caller). */
  shellEnv: Record<string, string>;
  enabled?: readonly BuiltinName[];
  grep?: GrepOptions;
  glob?: GlobOptions;
};

type Spec = { schema: z.ZodObject; description: string; readOnly: boolean };

const SPECS: Record<BuiltinName, Spec> = {
  Read: { schema: readArgs, description: READ_DESCRIPTION, readOnly: true },
  Write: { schema: writeArgs, description: WRITE_DESCRIPTION, readOnly: false },
  Edit: { schema: editArgs, description: EDIT_DESCRIPTION, readOnly: false },
  Bash: { schema: bashArgs, description: BASH_DESCRIPTION, readOnly: false },
  Glob: { schema: globArgs, description: GLOB_DESCRIPTION, readOnly: true },
  Grep: { schema: grepArgs, description: GREP_DESCRIPTION, readOnly: true },
};

const isBuiltinName = (name: string): name is BuiltinName =>
  (BUILTIN_NAMES as readonly string[]).includes(name);

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");

/** The built-in tools (Read, Write, Edit, Bash, Glob, Grep) as a tool provider. */
export class BuiltinTools implements ToolProvider {
  readonly source = "builtin";
  private readonly enabled: readonly BuiltinName[];
  private descriptors: ToolDescriptor[] | undefined;
  private readonly gate = new ToolGate();

  constructor(private readonly deps: BuiltinToolsDeps) {
    this.enabled = deps.enabled ?? BUILTIN_NAMES;
  }

  listTools(): ToolDescriptor[] {
    this.descriptors ??= this.enabled.map((name) => {
      const spec = SPECS[name];
      const { $schema: _drop, ...inputSchema } = z.toJSONSchema(spec.schema) as JsonObject;
      return {
        name,
        description: spec.description,
        inputSchema,
        annotations: { readOnlyHint: spec.readOnly, openWorldHint: name === "Bash" },
      };
    });
    return this.descriptors;
  }

  async callTool(name: string, args: JsonObject, ctx: ToolCallContext): Promise<ToolResult> {
    if (!isBuiltinName(name) || !this.enabled.includes(name))
      return toolError(`Unknown built-in tool: ${name}`);
    const parsed = SPECS[name].schema.safeParse(args);
    if (!parsed.success)
      return toolError(`Invalid arguments for ${name}: ${describeIssues(parsed.error)}`);
    try {
      return await this.gate.run(name === "Bash" ? "shell" : "files", () =>
        this.dispatch(name, parsed.data, ctx),
      );
    } catch (error) {
      if (error instanceof PathRefused)
        return toolError(`${name} refused: ${error.message} (${error.code})`);
      const e = error as NodeJS.ErrnoException;
      return toolError(`${name} failed: ${e.code ? `${e.code}: ` : ""}${e.message}`);
    }
  }

  private dispatch(name: BuiltinName, data: unknown, ctx: ToolCallContext): Promise<ToolResult> {
    const { confinement } = this.deps;
    switch (name) {
      case "Read":
        return readFile(confinement, data as z.infer<typeof readArgs>);
      case "Write":
        return writeFileTool(confinement, data as z.infer<typeof writeArgs>);
      case "Edit":
        return editFile(confinement, data as z.infer<typeof editArgs>);
      case "Bash":
        return runBash(
          { confinement, shell: this.deps.shell, env: this.deps.shellEnv },
          data as z.infer<typeof bashArgs>,
          ctx.signal,
        );
      case "Glob":
        return globFiles(confinement, data as z.infer<typeof globArgs>, ctx.signal, this.deps.glob);
      case "Grep":
        return grepFiles(confinement, data as z.infer<typeof grepArgs>, ctx.signal, this.deps.grep);
    }
  }
}
