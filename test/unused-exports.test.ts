/**
 * packages/core and packages/db export only what some other file imports: a new export
 * nobody uses fails here and in `npm run lint`.
 */
import { describe, expect, it } from "vitest";
import { tempTree } from "./helpers/temp-tree";
// @ts-expect-error: a plain .mjs script without type declarations
import { findUnusedExports, newUnusedExports } from "../scripts/check-unused-exports.mjs";

const find = findUnusedExports as (root?: string) => string[];
const findNew = newUnusedExports as (root?: string) => string[];

const { root: tmp, write } = tempTree("unused-exports-");

describe("unused exports", () => {
  it("finds none in core and db beyond the allow-listed ones", () => {
    expect(findNew()).toEqual([]);
  });

  it("follows imports through barrels, counts a namespace import whole, and names what nobody imports", () => {
    write(
      "packages/core/package.json",
      JSON.stringify({ name: "@switchyard/core", exports: { "./x": "./src/x/index.ts" } }),
    );
    write("packages/core/src/x/index.ts", 'export { a, b } from "./a";\nexport * from "./c";\n');
    write(
      "packages/core/src/x/a.ts",
      "export const a = 1;\nexport const b = 2;\nexport type A = number;\n",
    );
    write("packages/core/src/x/c.ts", "export const c = 3;\nexport const d = 4;\n");
    write("packages/core/src/x/e.ts", "export const e = 5;\nexport const f = 6;\n");
    write("packages/core/src/x/a.test.ts", 'import { A } from "./a";\n');
    write(
      "apps/web/src/use.ts",
      'import { a, c } from "@switchyard/core/x";\nimport * as all from "../../../packages/core/src/x/e";\n',
    );
    expect(find(tmp)).toEqual(["packages/core/src/x/a.ts: b", "packages/core/src/x/c.ts: d"]);
  });
});
