import { describe, expect, it } from "vitest";
import { connectorCommandRefusal, type StdioLaunch } from "./connector-command-policy";

const launch = (
  command: string,
  args: string[] = [],
  env: Record<string, string> = {},
): StdioLaunch => ({ command, args, env });
const refusal = (l: StdioLaunch) => connectorCommandRefusal(l, { allowAnyCommand: false });

describe("connectorCommandRefusal: commands from the connectors folder", () => {
  it.each([
    [
      "a program of the folder",
      launch("/opt/connectors/node_modules/.bin/mcp-server-filesystem", ["/srv/data"]),
    ],
    [
      "node with a script of the folder first",
      launch("node", [
        "/opt/connectors/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
        "stdio",
      ]),
    ],
    [
      "an interpreter by its path",
      launch("/usr/bin/python3", [
        "/opt/connectors/server.py",
        "-c",
        "whatever the script makes of it",
      ]),
    ],
    ["bash with a script", launch("bash", ["/opt/connectors/run.sh"])],
    [
      "node with a connector shipped with Switchyard",
      launch("node", ["/opt/switchyard/connectors/demo-connector.mjs"]),
    ],
    [
      "a plain environment",
      launch("/opt/connectors/server", [], {
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        LDAP_URL: "ldap://x",
      }),
    ],
  ])("allows %s", (_what, l) => {
    expect(refusal(l)).toBeUndefined();
  });

  it.each([
    ["node -e", launch("node", ["-e", "require('child_process').execSync('id')"]), "command"],
    [
      "node with an option before the script",
      launch("node", ["--require", "/tmp/x.js", "/opt/connectors/server.js"]),
      "command",
    ],
    ["node alone", launch("node"), "command"],
    [
      "a script outside the folder",
      launch("python3", ["/usr/lib/python3/dist-packages/x.py"]),
      "command",
    ],
    [
      "a script beside the built-in connectors",
      launch("node", ["/opt/switchyard/other.mjs"]),
      "command",
    ],
    ["the built-in folder itself", launch("/opt/switchyard/connectors"), "command"],
    [
      "a path that climbs out",
      launch("/opt/connectors/../../usr/bin/curl", ["http://169.254.169.254/"]),
      "command",
    ],
    ["a script that climbs out", launch("node", ["/opt/connectors/../../tmp/x.js"]), "command"],
    ["the folder itself", launch("/opt/connectors/"), "command"],
    ["a system program", launch("/usr/bin/curl", ["http://169.254.169.254/"]), "command"],
    ["npx", launch("npx", ["-y", "@modelcontextprotocol/server-filesystem"]), "command"],
    ["a relative path", launch("opt/connectors/server"), "command"],
    ["sh -c", launch("sh", ["-c", "id"]), "command"],
    [
      "NODE_OPTIONS",
      launch("/opt/connectors/server", [], {
        NODE_OPTIONS: "--import=data:text/javascript,process.exit(3)",
      }),
      "env.NODE_OPTIONS",
    ],
    [
      "LD_PRELOAD",
      launch("/opt/connectors/server", [], { LD_PRELOAD: "/tmp/x.so" }),
      "env.LD_PRELOAD",
    ],
    [
      "PYTHONWARNINGS",
      launch("python3", ["/opt/connectors/s.py"], { PYTHONWARNINGS: "all:0:antigravity.x:0:0" }),
      "env.PYTHONWARNINGS",
    ],
    [
      "BROWSER",
      launch("python3", ["/opt/connectors/s.py"], { BROWSER: "sh -c id" }),
      "env.BROWSER",
    ],
    ["PS4", launch("bash", ["/opt/connectors/run.sh"], { PS4: "$(id)" }), "env.PS4"],
    [
      "BASH_ENV",
      launch("bash", ["/opt/connectors/run.sh"], { BASH_ENV: "/proc/self/environ" }),
      "env.BASH_ENV",
    ],
    [
      "GIT_CONFIG_COUNT",
      launch("/opt/connectors/git-server", [], { GIT_CONFIG_COUNT: "1" }),
      "env.GIT_CONFIG_COUNT",
    ],
    ["PATH", launch("/opt/connectors/server", [], { PATH: "/tmp" }), "env.PATH"],
    [
      "a credential put in NODE_OPTIONS",
      { ...launch("/opt/connectors/server"), credentialEnv: "NODE_OPTIONS" },
      "credential_env",
    ],
  ])("refuses %s, naming the field", (_what, l, field) => {
    const error = refusal(l);
    expect(error).toMatchObject({
      code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED",
      location: { path: field },
    });
    expect(error?.httpStatus).toBe(403);
    expect(error?.message).toContain("instance admin");
  });

  it("allows anything when an instance admin allows any command", () => {
    expect(
      connectorCommandRefusal(launch("node", ["-e", "1"], { NODE_OPTIONS: "--inspect" }), {
        allowAnyCommand: true,
      }),
    ).toBeUndefined();
  });
});
