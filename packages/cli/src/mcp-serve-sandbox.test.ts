/**
 * `Bash` of `switchyard mcp-serve` started by hand runs in a sandbox of its own over
 * root_dir (found on the first command), and as a plain child with `sandbox: "inherit"`;
 * through the SDK client over stdio against the real command.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ENTRY = path.join(REPO, "packages/cli/src/mcp-serve-command-entry.ts");
const asRoot = process.getuid?.() === 0;
const myUid = process.getuid?.() ?? 0;

let dir: string;
let root: string;
let secretFile: string;
let listener: Server | undefined;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-serve-sbx-"));
  await chmod(dir, 0o711);
  root = path.join(dir, "ws");
  await mkdir(root);
  secretFile = path.join(dir, "secret.txt");
  await writeFile(secretFile, "outside-secret-5d1c\n", { mode: 0o644 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  listener?.close();
  listener = undefined;
  await rm(dir, { recursive: true, force: true });
});

const writeConfig = async (extra: Record<string, unknown>) => {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify({ root_dir: root, log_calls: false, ...extra }));
  return file;
};

const start = async (extra: Record<string, unknown> = {}, env?: Record<string, string>) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", ENTRY, "--config", await writeConfig(extra)],
    cwd: REPO,
    stderr: "pipe",
    ...(env ? { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } } : {}),
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: "sandbox-test", version: "1" });
  clients.push(client);
  await client.connect(transport);
  const bash = async (command: string) => {
    const r = await client.callTool({ name: "Bash", arguments: { command } });
    const text = (r.content as { text?: string }[]).map((b) => b.text ?? "").join("");
    return { isError: r.isError === true, text };
  };
  return { client, bash, stderr: () => stderr, transport };
};

const stdoutOf = (text: string) => /stdout:\n([\s\S]*?)(?:\nstderr:|$)/.exec(text)?.[1] ?? "";

const loopbackPort = async () => {
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener!.listen(0, "127.0.0.1", resolve));
  return (listener.address() as { port: number }).port;
};

describe('mcp-serve Bash in a sandbox of its own (default, "sandbox": "own")', () => {
  it("finds the level on the first command only, runs as a uid of its own when root", async () => {
    const { client, bash, stderr } = await start();
    await client.listTools();
    expect(stderr()).not.toContain("Bash sandbox:");
    const id = await bash("id -u; echo $HOME; pwd");
    expect(id.isError).toBe(false);
    const [uid, home, pwd] = stdoutOf(id.text).trim().split("\n");
    const line = /Bash sandbox: (\w+)(?: \(uid (\d+)\))?/.exec(stderr());
    expect(line).not.toBeNull();
    if (asRoot) {
      expect(line![1]).toBe("strict");
      expect(uid).toBe(line![2]);
      expect(uid).not.toBe("0");
    } else {
      expect(line![1]).toBe("namespaces");
      expect(uid).toBe(String(myUid));
    }
    expect(home).toBe("/home/step");
    expect(pwd).toBe("/workspace");
    await bash("true");
    expect(stderr().match(/Bash sandbox:/g)).toHaveLength(1);
  });

  it("keeps its private HOME and temp folder for the proxy's life and removes them at the end", async () => {
    const scratch = path.join(dir, "tmp");
    await mkdir(scratch, { mode: 0o711 });
    const { client, bash, transport } = await start({}, { TMPDIR: scratch });
    await bash("echo kept > $HOME/h.txt");
    expect(stdoutOf((await bash("cat $HOME/h.txt")).text)).toBe("kept\n");
    const ours = async () =>
      (await readdir(scratch)).filter((n) => n.startsWith("switchyard-bash-"));
    expect(await ours()).toHaveLength(1);
    const exited = new Promise((resolve) => (transport.onclose = () => resolve(undefined)));
    await client.close();
    await exited;
    for (let i = 0; i < 50 && (await ours()).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await ours()).toEqual([]);
  });

  it("cannot read /etc/shadow or files outside root_dir", async () => {
    const { bash } = await start();
    const shadow = await bash("cat /etc/shadow");
    expect(shadow.isError).toBe(true);
    expect(shadow.text).toMatch(/No such file/);
    const outside = await bash(`cat ${secretFile}`);
    expect(outside.isError).toBe(true);
    expect(outside.text).not.toContain("outside-secret-5d1c");
  });

  it("writes land in root_dir, next to what the other built-ins wrote, owned as before", async () => {
    const { client, bash } = await start();
    await client.callTool({ name: "Write", arguments: { path: "notes/a.txt", content: "one\n" } });
    const r = await bash("echo two >> notes/a.txt && mkdir -p out && echo made > out/b.txt");
    expect(r.isError).toBe(false);
    expect(await readFile(path.join(root, "notes/a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(await readFile(path.join(root, "out/b.txt"), "utf8")).toBe("made\n");
    const read = await client.callTool({ name: "Read", arguments: { path: "out/b.txt" } });
    expect((read.content as { text: string }[])[0]!.text).toBe("made");
    // Commands at the same time share the folder; it is given back once the last one ends.
    const both = await Promise.all([
      bash("sleep 0.5; echo x > out/c.txt"),
      bash("echo y > out/d.txt; sleep 1; echo z >> out/d.txt"),
    ]);
    expect(both.map((b) => b.isError)).toEqual([false, false]);
    expect(await readFile(path.join(root, "out/d.txt"), "utf8")).toBe("y\nz\n");
    for (const f of [".", "notes", "notes/a.txt", "out", "out/b.txt", "out/c.txt", "out/d.txt"])
      expect((await stat(path.join(root, f))).uid).toBe(myUid);
  });

  it("has no network unless bash_network is true", async () => {
    const port = await loopbackPort();
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
    const closed = await start();
    expect((await closed.bash(probe)).isError).toBe(true);
    const open = await start({ bash_network: true });
    const r = await open.bash(probe);
    expect(r.isError).toBe(false);
    expect(r.text).toContain("connected");
  });
});

describe('mcp-serve Bash with "sandbox": "inherit"', () => {
  it("runs as a plain child of the proxy, as before", async () => {
    const { bash, stderr } = await start({ sandbox: "inherit" });
    const r = await bash(`id -u; cat ${secretFile}; pwd`);
    expect(r.isError).toBe(false);
    expect(stdoutOf(r.text)).toBe(`${myUid}\noutside-secret-5d1c\n${root}\n`);
    await bash("echo here > c.txt");
    expect(await readFile(path.join(root, "c.txt"), "utf8")).toBe("here\n");
    expect(stderr()).not.toContain("Bash sandbox:");
  });

  it("rejects bash_network with inherit and an unknown sandbox value", async () => {
    for (const extra of [{ sandbox: "inherit", bash_network: true }, { sandbox: "outer" }]) {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", ENTRY, "--config", await writeConfig(extra)],
        { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(err).toMatch(/USER\.INPUT\.VALIDATION_FAILED.*(bash_network|sandbox)/);
    }
  });
});
