/**
 * Every procedure of the dashboard's router declares the shape it answers with, from the
 * contract's `.types.ts` schemas, so an answer is checked on the server and its type is
 * the contract's: a new procedure without `.output()` fails here.
 */
import { expect, it } from "vitest";
import { appRouter } from "./root";

type ProcedureDef = { _def: { type: string; output?: unknown } };

it("gives every procedure of the app router an output parser", () => {
  const procedures = Object.entries(
    appRouter._def.procedures as unknown as Record<string, ProcedureDef>,
  );
  expect(procedures.length).toBeGreaterThan(0);
  expect(procedures.map(([path]) => path)).toContain("runs.get");
  const without = procedures.filter(([, p]) => p._def.output === undefined).map(([path]) => path);
  expect(without).toEqual([]);
});
