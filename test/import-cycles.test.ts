/**
 * The sources import each other without cycles, and the folders split by concern import one
 * way: a new cycle or an import against the order fails here and in `npm run lint`.
 */
import { describe, expect, it } from "vitest";
import { tempTree } from "./helpers/temp-tree";
// @ts-expect-error: a plain .mjs script without type declarations
import { findImportCycles, findWrongWayImports } from "../scripts/check-import-cycles.mjs";

type Cycles = string[][];
const find = findImportCycles as (root?: string) => Cycles;
const wrongWay = findWrongWayImports as (root?: string) => string[];

const { root: tmp, write } = tempTree("import-cycles-");

describe("import cycles", () => {
  it("finds none in the repository", () => {
    expect(find()).toEqual([]);
  });

  it("finds a cycle through relative imports and a package's exported subpath", () => {
    write(
      "packages/x/package.json",
      JSON.stringify({ name: "@switchyard/x", exports: { "./a": "./src/a.ts" } }),
    );
    write("packages/x/src/a.ts", 'import { b } from "./b.js";\nexport const a = b;\n');
    write(
      "packages/x/src/b.ts",
      'import type { A } from "@switchyard/x/a";\nexport const b = 2;\n',
    );
    write("packages/x/src/c.ts", 'import { a } from "./a";\nexport const c = a;\n');
    expect(find(tmp)).toEqual([["packages/x/src/a.ts", "packages/x/src/b.ts"]]);
  });
});

describe("one-way folders", () => {
  const { root, write: put } = tempTree("one-way-");

  it("finds no import against the order in the repository", () => {
    expect(wrongWay()).toEqual([]);
  });

  it("finds an import from a lower folder into a higher one, and a folder the order does not name", () => {
    const wf = "packages/core/src/workflow";
    put(`${wf}/index.ts`, 'export { run } from "./engine/run";\n');
    put(
      `${wf}/engine/run.ts`,
      'import { parse } from "../parse/parse";\nexport const run = parse;\n',
    );
    put(
      `${wf}/parse/parse.ts`,
      'import { run } from "../engine/run";\nexport const parse = 1;\nvoid run;\n',
    );
    put(`${wf}/extra/odd.ts`, "export const odd = 1;\n");
    expect(wrongWay(root)).toEqual([
      `${wf}/extra/odd.ts: ${wf}/extra is not in ONE_WAY`,
      `${wf}/parse/parse.ts -> ${wf}/engine/run.ts`,
    ]);
  });
});
