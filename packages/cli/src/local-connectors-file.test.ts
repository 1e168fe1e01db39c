/**
 * The local connectors file: the `mcpServers` shape read into stdio servers, `${NAME}` taken
 * from the person's variables (and kept as secrets), and each mistake refused with
 * USER.CONNECTOR.INVALID at its line and field.
 */
import { expect, it } from "vitest";
import { AppError } from "@switchyard/core/errors";
import { parseLocalConnectors } from "./local-connectors-file";

const FILE = "/w/.switchyard/connectors.json";

const refusal = (text: string, variables: NodeJS.ProcessEnv = {}) => {
  try {
    parseLocalConnectors(text, FILE, variables);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("not refused");
};

it("reads stdio servers, taking ${NAME} from the person's variables as secrets", () => {
  const read = parseLocalConnectors(
    JSON.stringify({
      mcpServers: {
        notes: {
          command: "node",
          args: ["tools/notes.mjs", "--fast"],
          env: {
            TOKEN: "${NOTES_TOKEN}",
            URL: "https://x/${REGION}/api",
            MODE: "true",
            API_KEY: "literal-key",
            OTHER: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
          },
        },
        bare: { type: "stdio", command: "notes-server" },
      },
    }),
    FILE,
    { NOTES_TOKEN: "tok-123456789", REGION: "eu" },
  );
  expect(read.servers.get("notes")).toEqual({
    name: "notes",
    command: "node",
    args: ["tools/notes.mjs", "--fast"],
    env: {
      TOKEN: "tok-123456789",
      URL: "https://x/eu/api",
      MODE: "true",
      API_KEY: "literal-key",
      OTHER: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    },
  });
  expect(read.servers.get("bare")).toEqual({
    name: "bare",
    command: "notes-server",
    args: [],
    env: {},
  });
  // The person's values and literals that name or look like a secret; not every literal.
  expect(read.secrets.sort()).toEqual(
    [
      "tok-123456789",
      "eu",
      "https://x/eu/api",
      "literal-key",
      "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    ].sort(),
  );
});

it("refuses each mistake at its line and field", () => {
  expect(refusal('{\n  "mcpServers": {\n    "notes": { "command": "node",, }\n  }\n}')).toEqual({
    code: "USER.CONNECTOR.INVALID",
    message: expect.stringMatching(new RegExp(`^${FILE}:3:\\d+: not JSON`)) as string,
  });
  expect(refusal('{ "servers": {} }').message).toContain(`${FILE}:1:1: mcpServers: the file is`);
  expect(refusal('{\n"mcpServers": {\n  "My-Notes": { "command": "x" }\n}}').message).toContain(
    `${FILE}:3:3: mcpServers.My-Notes: a connector's name is`,
  );
  expect(
    refusal('{\n"mcpServers": {\n  "notes": {\n    "url": "https://example.com/mcp"\n  }\n}}')
      .message,
  ).toContain(`${FILE}:4:5: mcpServers.notes.url: switchyard run starts stdio servers only`);
  expect(refusal('{"mcpServers": {"notes": {"command": "x", "cwd": "/"}}}').message).toContain(
    "mcpServers.notes.cwd: unknown field (a server has command, args, env, type)",
  );
  expect(refusal('{"mcpServers": {"notes": {"command": ""}}}').message).toContain(
    "mcpServers.notes.command: the command",
  );
  expect(refusal('{"mcpServers": {"notes": {"command": "x", "args": [1]}}}').message).toContain(
    "mcpServers.notes.args: a list of strings",
  );
  expect(
    refusal('{\n"mcpServers": {"notes": {"command": "x",\n  "env": {"TOKEN": "${NOPE}"}}}}')
      .message,
  ).toContain(`${FILE}:3:11: mcpServers.notes.env.TOKEN: \${NOPE} is not set in your environment`);
});
