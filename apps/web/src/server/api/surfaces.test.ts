/**
 * Both surfaces serve every declared operation: a tRPC procedure or a REST route that is
 * not in the operation table, or an operation on one surface only without a reason, fails
 * here.
 */
import { expect, it } from "vitest";
import { restOperations } from "../rest/rest-api";
import { appRouter } from "../trpc/root";
import type { OneSurface, OperationSpec } from "../contract/operation";
import { operationTable } from "./api-table";

const declared = Object.entries(
  operationTable as Record<string, Record<string, OperationSpec>>,
).flatMap(([area, ops]) =>
  Object.entries(ops).map(([name, spec]) => ({ procedure: `${area}.${name}`, spec })),
);
const restKey = (spec: OperationSpec) =>
  "method" in spec.rest ? `${spec.rest.method} ${spec.rest.path}` : undefined;
const reasonOf = (surface: OneSurface | undefined) => surface?.only.trim() ?? "";

it("declares every operation on both surfaces, or says why it is on one", () => {
  expect(declared.length).toBeGreaterThan(0);
  const unexplained = declared.filter(
    ({ spec }) =>
      (restKey(spec) === undefined && reasonOf(spec.rest as OneSurface) === "") ||
      (spec.trpc && reasonOf(spec.trpc) === ""),
  );
  expect(unexplained.map((d) => d.procedure)).toEqual([]);
  const nowhere = declared.filter(({ spec }) => restKey(spec) === undefined && spec.trpc);
  expect(nowhere.map((d) => d.procedure)).toEqual([]);
});

it("serves each declared operation as a procedure, unless it says why not, and no procedure outside the table", () => {
  const procedures = Object.keys(appRouter._def.procedures);
  const wanted = declared.filter(({ spec }) => !spec.trpc).map((d) => d.procedure);
  expect(wanted.filter((p) => !procedures.includes(p))).toEqual([]);
  expect(
    declared
      .filter(({ spec }) => spec.trpc)
      .map((d) => d.procedure)
      .filter((p) => procedures.includes(p)),
  ).toEqual([]);
  expect(procedures.filter((p) => !wanted.includes(p))).toEqual([]);
});

it("serves each declared operation as a REST route, unless it says why not, and no route outside the table", () => {
  const routes = restOperations.map((r) => `${r.method} ${r.path}`);
  const wanted = declared.flatMap(({ spec }) => restKey(spec) ?? []);
  expect(wanted.filter((k) => !routes.includes(k))).toEqual([]);
  expect(
    restOperations
      .filter((r) => !wanted.includes(`${r.method} ${r.path}`))
      .map((r) => `${r.method} ${r.path}`),
  ).toEqual([]);
});
