/**
 * packages/core stays framework-free: no Next.js, BullMQ, Prisma or ioredis imports and no
 * process.env, so it runs the same under the worker, the CLI and tests.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SRC = path.dirname(fileURLToPath(import.meta.url));
const FORBIDDEN_IMPORT =
  /from\s+["'](next|next\/[^"']*|bullmq|ioredis|@prisma\/[^"']*|@switchyard\/db|@switchyard\/web|@switchyard\/worker)["']|import\(\s*["'](next|bullmq|ioredis|@prisma\/[^"']*)["']\s*\)/;
const PROCESS_ENV = /process\.env\b/;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [full] : [];
  });

it("imports no framework, queue or database package and never reads process.env", () => {
  const files = sourceFiles(SRC);
  expect(files.length).toBeGreaterThan(5);
  const offenders = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const problems: string[] = [];
    const m = FORBIDDEN_IMPORT.exec(text);
    if (m) problems.push(`${path.relative(SRC, file)} imports ${m[1] ?? m[2]}`);
    if (PROCESS_ENV.test(text)) problems.push(`${path.relative(SRC, file)} reads process.env`);
    return problems;
  });
  expect(offenders).toEqual([]);
});

it("would catch a forbidden import", () => {
  expect(FORBIDDEN_IMPORT.test('import { Queue } from "bullmq";')).toBe(true);
  expect(FORBIDDEN_IMPORT.test('import { PrismaClient } from "@prisma/client";')).toBe(true);
  expect(FORBIDDEN_IMPORT.test('import { z } from "zod";')).toBe(false);
});
