/**
 * The sources import each other without cycles: a new cycle fails here and in `npm run lint`.
 */
import { describe, expect, it } from "vitest";
import { tempTree } from "./helpers/temp-tree";
// @ts-expect-error: a plain .mjs script without type declarations
import { findImportCycles } from "../scripts/check-import-cycles.mjs";

type Cycles = string[][];
const find = findImportCycles as (root?: string) => Cycles;

const { root: tmp, write } = tempTree("import-cycles-");

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
