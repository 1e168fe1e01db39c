/**
 * The sources import each other without cycles: a new cycle fails here and in `npm run lint`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { findImportCycles } from "../scripts/check-import-cycles.mjs";

type Cycles = string[][];
const find = findImportCycles as (root?: string) => Cycles;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
  fs.writeFileSync(path.join(tmp, file), text);
};

describe("import cycles", () => {
  it("finds none in the repository", () => {
    expect(find()).toEqual([]);
  });

  it("finds a cycle through relative imports and a package's exported subpath", () => {
    write("packages/x/package.json", JSON.stringify({ name: "@switchyard/x", exports: { "./a": "./src/a.ts" } }));
    write("packages/x/src/a.ts", 'import { b } from "./b.js";\nexport const a = b;\n');
    write("packages/x/src/b.ts", 'import type { A } from "@switchyard/x/a";\nexport const b = 2;\n');
    write("packages/x/src/c.ts", 'import { a } from "./a";\nexport const c = a;\n');
    expect(find(tmp)).toEqual([["packages/x/src/a.ts", "packages/x/src/b.ts"]]);
  });
});
