/**
 * Product code carries no test support: no source file of core, db, the worker, the web
 * app or the CLI imports `vitest`, `@switchyard/testing` or `@switchyard/scripted-model`
 * (test files aside; the scripted model in one named module only, below), and neither core
 * nor db exports a testing subpath. Test helpers live in the private packages/testing.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempTree } from "./helpers/temp-tree";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const PRODUCTION = [
  "packages/core",
  "packages/db",
  "apps/worker",
  "apps/web/src",
  "packages/cli/src",
];
const PUBLISHING = ["packages/core", "packages/db"];
/**
 * The one module that may import the scripted model: the product may later serve it as a
 * demo model endpoint (Switchyard tried without a vendor key), and that endpoint goes
 * through here alone, so nothing else of the product comes to lean on a test double. The
 * worker, not core: the scripted model itself imports core.
 */
const DEMO_MODEL = { file: "apps/worker/src/demo-model.ts", allows: "@switchyard/scripted-model" };

const SKIP = new Set(["node_modules", ".next", "dist", "generated", ".data", "test-results"]);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEST = /\.(test|spec)\.[cm]?[jt]sx?$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;
const FORBIDDEN = /^(vitest|@switchyard\/testing|@switchyard\/scripted-model)(\/|$)/;

const sources = (dir: string, out: string[] = []): string[] => {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) sources(full, out);
    } else if (SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith(".d.ts"))
      out.push(full);
  }
  return out;
};

/** `file: specifier` for every forbidden import in a production source. */
const testImports = (root: string): string[] =>
  PRODUCTION.flatMap((dir) => sources(path.join(root, dir)))
    .map((file) => path.relative(root, file))
    .flatMap((rel) =>
      [...fs.readFileSync(path.join(root, rel), "utf8").matchAll(SPECIFIER)]
        .map((m) => m[1]!)
        .filter((spec) => FORBIDDEN.test(spec))
        .filter((spec) => !(rel === DEMO_MODEL.file && spec === DEMO_MODEL.allows))
        .map((spec) => `${rel}: ${spec}`),
    );

/** `package: subpath` for every exported subpath whose name or target speaks of tests. */
const testingSubpaths = (root: string): string[] =>
  PUBLISHING.flatMap((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8")) as {
      exports?: Record<string, unknown>;
    };
    return Object.entries(pkg.exports ?? {})
      .filter(([sub, target]) => /test/i.test(`${sub} ${JSON.stringify(target)}`))
      .map(([sub]) => `${dir}: ${sub}`);
  });

const { root, write } = tempTree("production-imports-");

describe("production imports", () => {
  it("no production source imports vitest, @switchyard/testing or the scripted model (but the demo model module)", () => {
    expect(testImports(ROOT)).toEqual([]);
  });

  it("core and db export no testing subpath", () => {
    expect(testingSubpaths(ROOT)).toEqual([]);
  });

  it("names a production file that imports test support, and a testing subpath", () => {
    write("packages/core/package.json", JSON.stringify({ exports: { "./x": "./src/x.ts" } }));
    write(
      "packages/db/package.json",
      JSON.stringify({ exports: { ".": "./src/index.ts", "./testing": "./src/testing/index.ts" } }),
    );
    write("packages/core/src/x.ts", 'import { expect } from "vitest";\nexport const x = expect;\n');
    write("packages/core/src/x.test.ts", 'import { it } from "vitest";\n');
    write("apps/web/src/page.tsx", 'const kit = await import("@switchyard/testing/db");\n');
    write("apps/worker/src/main.ts", 'import { seed } from "@switchyard/db/seed";\n');
    write("packages/cli/src/run.ts", 'export { a } from "vitest/config";\n');
    write(
      "apps/worker/src/model.ts",
      'import { startScriptedModel } from "@switchyard/scripted-model";\n',
    );
    write(
      DEMO_MODEL.file,
      'import { startScriptedModel } from "@switchyard/scripted-model";\nimport "vitest";\n',
    );
    expect(testImports(root).sort()).toEqual(
      [
        "packages/core/src/x.ts: vitest",
        "apps/web/src/page.tsx: @switchyard/testing/db",
        "packages/cli/src/run.ts: vitest/config",
        "apps/worker/src/model.ts: @switchyard/scripted-model",
        `${DEMO_MODEL.file}: vitest`,
      ].sort(),
    );
    expect(testingSubpaths(root)).toEqual(["packages/db: ./testing"]);
  });
});
