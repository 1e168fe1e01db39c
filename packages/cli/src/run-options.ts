/**
 * The command line of `switchyard run`: the workflow file, inputs, and how its processes
 * are confined (sandbox level, workspace folder, network), with the help text that says so.
 */
import { AppError } from "@switchyard/core/errors";
import { parseSandboxMode, type SandboxMode } from "./local-sandbox";
import { inputPair } from "./server-args";

export type RunOptions = {
  file: string | undefined;
  inputs: Record<string, string>;
  /** From --sandbox, else SWITCHYARD_SANDBOX, else auto. */
  sandbox: SandboxMode;
  /** From --workspace, else the current folder. */
  workspace: string;
  network: boolean;
  /** From --connectors: the local connectors file; unset: .switchyard/connectors.json next to the workflow. */
  connectors: string | undefined;
  help: boolean;
};

/** The help text of `switchyard run`. */
export const RUN_USAGE = `usage: switchyard run <file> [--input key=value]... [--sandbox auto|strict|namespaces|none]
                      [--workspace <dir>] [--no-network] [--connectors <file>]

Runs a workflow locally. Every shell step and hook runs in the step sandbox (bubblewrap):
  - the workspace (the current folder, or --workspace <dir>) is bound read-write at
    /workspace and is the steps' working folder: your files there are visible and what
    steps write lands there; nothing else of your machine is (no home folder, no /etc/shadow)
  - HOME and /tmp are private to the run and removed at its end
  - steps get only the variables the workflow passes (its env: list), never your environment
  - the network is shared with your machine, unfiltered, unless --no-network is given
Operation states (http.request, notify.send, github.*) are sent by switchyard run itself,
as you, over your network, unfiltered; --no-network refuses them.

--sandbox (default: SWITCHYARD_SANDBOX, else auto)
  auto        strict when run as root, else namespaces
  strict      own unprivileged uid (SWITCHYARD_LOCAL_STEP_UID_BASE, default 61000, picks a free
              one of the next 64) plus namespaces; needs root. While the run lasts the workspace
              belongs to that uid; every file gets its owner back at the end
  namespaces  namespaces only, as your own uid
  none        no confinement at all (development without bubblewrap); says so loudly
Connectors a step names in mcp_proxy (plugin_tools, connectors) are the stdio MCP servers of
.switchyard/connectors.json next to the workflow, or of --connectors <file>, in the mcpServers
shape of other MCP clients; each runs in a sandbox of its own at the run's level.

The level used is printed on stderr at the start. Without bubblewrap the run fails unless
--sandbox none (or SWITCHYARD_SANDBOX=none) is given.`;

/** The run's options from argv and the environment; throws on a bad flag or value. */
export const parseRunOptions = (
  argv: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): RunOptions => {
  const options: RunOptions = {
    file: undefined,
    inputs: {},
    sandbox: env.SWITCHYARD_SANDBOX
      ? parseSandboxMode(env.SWITCHYARD_SANDBOX, "SWITCHYARD_SANDBOX")
      : "auto",
    workspace: cwd,
    network: true,
    connectors: undefined,
    help: false,
  };
  const valueOf = (i: number, name: string) => {
    const value = argv[i];
    if (value === undefined || value === "")
      throw new AppError("USER.INPUT.VALIDATION_FAILED", `${name} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = () => (inline !== undefined ? inline : valueOf(++i, name));
    switch (name) {
      case "--input":
      case "-i": {
        const [key, v] = inputPair(value());
        options.inputs[key] = v;
        break;
      }
      case "--sandbox":
        options.sandbox = parseSandboxMode(value(), "--sandbox");
        break;
      case "--workspace":
        options.workspace = value();
        break;
      case "--connectors":
        options.connectors = value();
        break;
      case "--no-network":
        options.network = false;
        break;
      case "--help":
      case "-h":
        options.help = true;
        break;
      default:
        if (arg.startsWith("-"))
          throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown option ${arg}`);
        if (options.file !== undefined)
          throw new AppError("USER.INPUT.VALIDATION_FAILED", `unexpected argument ${arg}`);
        options.file = arg;
    }
  }
  return options;
};
