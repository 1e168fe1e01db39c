/**
 * docs/api.md cannot drift from the API: every /api/v1 path it mentions is a served
 * route (a `$VAR` or `{name}` segment stands for a path parameter), and every curl
 * example's method is one that route answers.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { restOperations } from "~/server/rest/rest-api";

const doc = readFileSync(new URL("../docs/api.md", import.meta.url), "utf8");

/** Served outside the route table. */
const SPECIAL = new Set(["/openapi.json"]);

/** `/runs/$RUN_ID/events?after=2` → `/runs/{}/events`. */
const shapeOf = (path: string) =>
  path
    .split(/[?#]/)[0]!
    .replace(/\/+$/, "")
    .split("/")
    .map((segment) => (segment.startsWith("$") || /^\{[^}]*\}$/.test(segment) ? "{}" : segment))
    .join("/");

const served = new Map<string, Set<string>>();
for (const op of restOperations) {
  const shape = shapeOf(op.path);
  served.set(shape, (served.get(shape) ?? new Set()).add(op.method));
}

const mentioned = [...doc.matchAll(/\/api\/v1(\/[A-Za-z0-9_\-{}$./]*)/g)].map((m) =>
  m[1]!.replace(/[.]+$/, ""),
);

it("mentions API paths at all (the pattern still finds them)", () => {
  expect(mentioned.length).toBeGreaterThan(10);
});

it("mentions only paths the REST API serves", () => {
  const unknown = [...new Set(mentioned)].filter(
    (path) => !SPECIAL.has(path) && !served.has(shapeOf(path)),
  );
  expect(unknown).toEqual([]);
});

it("uses in each curl example a method its path answers", () => {
  const curls = [...doc.matchAll(/curl\b([^\n]*(?:\\\n[^\n]*)*)/g)].map((m) => m[1]!);
  const wrong: string[] = [];
  for (const curl of curls) {
    const path = /\/api\/v1(\/[^"\s?]*)/.exec(curl)?.[1];
    if (!path || SPECIAL.has(path)) continue;
    const method = /-X\s+([A-Z]+)/.exec(curl)?.[1] ?? "GET";
    if (!served.get(shapeOf(path))?.has(method)) wrong.push(`${method} ${path}`);
  }
  expect(curls.length).toBeGreaterThan(5);
  expect(wrong).toEqual([]);
});
