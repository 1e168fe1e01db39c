/**
 * Which programs a team-authored stdio connector may start. A team admin is any account
 * (anyone may create a team), and a connector's command runs on the worker's host, so
 * unless an instance admin allows any command, the program must come from the connectors
 * folder the machine's admin filled (seen at /opt/connectors inside the connector's
 * sandbox): a program there, or a script there run by a plain interpreter (`node`,
 * `python3`, `sh`, `bash`) with the script as its first argument, so no interpreter option
 * such as `-e` comes first. The environment may not hold the variables that make a loader,
 * an interpreter or a shell run code given inline (`NODE_OPTIONS=--import data:…`,
 * `LD_PRELOAD`, `PYTHONWARNINGS` with `BROWSER`, `PS4` with `SHELLOPTS`, …). The web app
 * checks it when a connector is saved, and the worker again before it starts one, so a
 * connector saved while any command was allowed stops once that is switched off.
 */
import path from "node:path";
import { AppError } from "../errors";

/** Where the connectors folder (SWITCHYARD_CONNECTORS_DIR) appears to a connector. */
export const CONNECTORS_INSIDE = "/opt/connectors";

/**
 * Where the connectors shipped with Switchyard itself (the demo connector) appear to a
 * connector: the worker's own folder, read-only, trusted like the connectors folder.
 */
export const BUILTIN_CONNECTORS_INSIDE = "/opt/switchyard/connectors";

/** Interpreters that may run a script of the connectors folder, named as they are or by their path in /usr/bin. */
const SCRIPT_RUNNERS = new Set(["node", "python3", "python", "sh", "bash"]);

/** Variables that make the loader, an interpreter, a shell or git run code or load files they name. */
const CODE_VARIABLES = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "BROWSER",
  "ENV",
  "PS4",
  "SHELLOPTS",
  "PROMPT_COMMAND",
  "IFS",
  "PATH",
  "GCONV_PATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
]);
const CODE_PREFIXES = ["LD_", "PYTHON", "PERL", "RUBY", "BASH", "GIT_"];

/** The parts of a stdio connector that decide what runs. */
export type StdioLaunch = {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The variable the credential goes in: its value is the credential's, written by whoever sets it. */
  credentialEnv?: string | undefined;
};

const inConnectorsFolder = (file: string) => {
  if (!file.startsWith("/")) return false;
  const normal = path.posix.normalize(file);
  return [CONNECTORS_INSIDE, BUILTIN_CONNECTORS_INSIDE].some(
    (folder) => normal.startsWith(`${folder}/`) && normal.length > folder.length + 1,
  );
};

const runnerName = (command: string) => {
  const name = command.startsWith("/usr/bin/") ? command.slice("/usr/bin/".length) : command;
  return SCRIPT_RUNNERS.has(name) ? name : undefined;
};

const refused = (where: string, message: string) =>
  new AppError("USER.CONNECTOR.COMMAND_NOT_ALLOWED", message, { location: { path: where } });

const ALLOW_ANY = "an instance admin allows any command in Settings → Instance";

/**
 * Why `launch` may not run, or undefined when it may. With `allowAnyCommand` (an instance
 * setting) every command may.
 */
export const connectorCommandRefusal = (
  launch: StdioLaunch,
  { allowAnyCommand }: { allowAnyCommand: boolean },
): AppError | undefined => {
  if (allowAnyCommand) return undefined;
  const runner = runnerName(launch.command);
  if (runner) {
    const script = launch.args[0];
    if (script === undefined || !inConnectorsFolder(script))
      return refused(
        "command",
        `"${runner}" runs only a script from the connectors folder, given as its first argument (e.g. ${CONNECTORS_INSIDE}/server.js): nothing may come before it, such as -e or -c; or ${ALLOW_ANY}`,
      );
  } else if (!inConnectorsFolder(launch.command)) {
    return refused(
      "command",
      `a connector's command is a program from the connectors folder, written as the connector sees it (${CONNECTORS_INSIDE}/…, e.g. ${CONNECTORS_INSIDE}/node_modules/.bin/mcp-server-filesystem), or node, python3, sh or bash with a script from that folder; the machine's admin installs programs there (docs/connectors.md); or ${ALLOW_ANY}`,
    );
  }
  const choosesCode = (name: string) =>
    CODE_VARIABLES.has(name) || CODE_PREFIXES.some((p) => name.startsWith(p));
  for (const name of Object.keys(launch.env)) {
    if (choosesCode(name))
      return refused(
        `env.${name}`,
        `${name} would let the connector's environment choose what code runs; it is not allowed unless ${ALLOW_ANY}`,
      );
  }
  if (launch.credentialEnv !== undefined && choosesCode(launch.credentialEnv))
    return refused(
      "credential_env",
      `the credential would go in ${launch.credentialEnv}, which chooses what code runs; name the variable the server reads its credential from, unless ${ALLOW_ANY}`,
    );
  return undefined;
};
