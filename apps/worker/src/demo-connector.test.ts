/**
 * The demo connector's build is kept between boots: built once per source, copied into each
 * worker's folder after that, and never taken from a folder someone else may write.
 */
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildDemoConnector } from "./demo-connector";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "demo-connector-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const keptFiles = async (cache: string) =>
  (await readdir(cache)).filter((name) => name.endsWith(".mjs"));

it("builds once into the cache, and a second boot copies the kept build", async () => {
  const cache = path.join(root, "cache");
  const first = await buildDemoConnector(path.join(root, "w1"), cache);
  const [kept] = await keptFiles(cache);
  expect(kept).toMatch(/^demo-connector-[0-9a-f]{24}\.mjs$/);
  expect((await stat(cache)).mode & 0o777).toBe(0o700);
  const built = await readFile(path.join(first, "demo-connector.mjs"), "utf8");
  expect(built).toContain("McpServer");
  expect((await stat(path.join(first, "demo-connector.mjs"))).mode & 0o777).toBe(0o644);

  // The kept file is what the next worker gets: marked here, the mark arrives.
  await writeFile(path.join(cache, kept!), `${built}\n// kept\n`, { mode: 0o644 });
  const second = await buildDemoConnector(path.join(root, "w2"), cache);
  expect(await readFile(path.join(second, "demo-connector.mjs"), "utf8")).toContain("// kept");
  expect(await keptFiles(cache)).toEqual([kept]);
});

it("builds again instead of taking a kept build others may write, and drops older builds", async () => {
  const cache = path.join(root, "shared");
  await buildDemoConnector(path.join(root, "w3"), cache);
  const [kept] = await keptFiles(cache);
  await writeFile(path.join(cache, kept!), "// planted\n");
  await chmod(path.join(cache, kept!), 0o666);
  await writeFile(path.join(cache, "demo-connector-000000000000000000000000.mjs"), "// old\n");
  const dir = await buildDemoConnector(path.join(root, "w4"), cache);
  const got = await readFile(path.join(dir, "demo-connector.mjs"), "utf8");
  expect(got).not.toContain("planted");
  expect(got).toContain("McpServer");
  expect(await keptFiles(cache)).toEqual([kept]);
  expect((await stat(path.join(cache, kept!))).mode & 0o777).toBe(0o644);
});
