#!/usr/bin/env node
// A stand-in for Claude Code in runClaude's tests: a real process that behaves as the CLI
// does at its edges (replays captured stream-json, crashes, hangs with a child, lingers after
// its result, reads its prompt from stdin). The real CLI is tested in claude-provider.int.test.ts.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const [mode, ...args] = process.argv.slice(2);
const line = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const result = (text, extra = {}) =>
  line({
    type: "result",
    subtype: "success",
    is_error: false,
    result: text,
    num_turns: 1,
    session_id: "fake",
    ...extra,
  });
const forever = () => setInterval(() => undefined, 60_000);

switch (mode) {
  case "replay": {
    const [file, code = "0", stderr = ""] = args;
    process.stdout.write(readFileSync(file));
    if (stderr) process.stderr.write(stderr);
    process.stdout.write("", () => process.exit(Number(code)));
    break;
  }
  case "crash":
    process.stdout.write("Warning: not an event\n");
    process.stderr.write(
      `${"noise line\n".repeat(300)}Error: Invalid MCP configuration: /tmp/x/mcp.json: no such file\n`,
    );
    process.exitCode = 1;
    break;
  case "hang": {
    // A child in the same process group (as Claude Code's MCP server is), its pid in a file.
    const [pidFile, stubborn] = args;
    if (stubborn) process.on("SIGTERM", () => undefined);
    const child = spawn(
      process.execPath,
      ["-e", "process.on('SIGTERM',()=>{});setInterval(()=>{},60000)"],
      {
        stdio: "ignore",
      },
    );
    writeFileSync(pidFile, `${process.pid} ${child.pid}`);
    line({ type: "system", subtype: "init", session_id: "fake-hang", mcp_servers: [] });
    forever();
    break;
  }
  case "linger":
    result("answered, then lingering");
    forever();
    break;
  case "stdin": {
    const chunks = [];
    process.stdin.on("data", (c) => chunks.push(c));
    process.stdin.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      result(`stdin had ${text.length} characters ending ${JSON.stringify(text.slice(-12))}`);
    });
    break;
  }
  case "token": {
    const key = process.env.ANTHROPIC_API_KEY;
    line({
      type: "assistant",
      message: { content: [{ type: "text", text: `my key is ${key}` }] },
      parent_tool_use_id: null,
    });
    process.stderr.write(`debug: key=${key}\n`);
    result(`the key was ${key}`, {
      usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 3 },
      total_cost_usd: 0.002,
    });
    break;
  }
  case "answer":
    result(args[0] ?? "");
    break;
  default:
    process.stderr.write(`fake-claude: unknown mode ${mode}\n`);
    process.exitCode = 2;
}
