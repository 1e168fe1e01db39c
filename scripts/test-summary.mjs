// Prints one closing line over every runner's report: "Tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

// Vitest's reports: unit and integration tests, then the fault-injection (chaos) project.
for (const [name, file] of [
  ["vitest", "vitest.json"],
  ["chaos", "chaos.json"],
]) {
  const report = path.join(dir, file);
  if (!existsSync(report)) {
    missing.push(name);
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  passed += r.numPassedTests;
  // A file that failed without a failing test (it did not load, a hook threw) counts once.
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((t) => t.status === "failed"),
  ).length;
  failed += r.numFailedTests + brokenFiles;
  skipped += r.numPendingTests + r.numTodoTests;
}

const pw = path.join(dir, "playwright.json");
if (existsSync(pw)) {
  const s = JSON.parse(readFileSync(pw, "utf8")).stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
} else missing.push("playwright");

// Lint and typecheck are checks, not tests: a failure counts as one failed test each.
const checks = path.join(dir, "checks-failed");
if (existsSync(checks)) {
  const failedChecks = readFileSync(checks, "utf8").split("\n").filter(Boolean);
  console.log(`failed checks: ${failedChecks.join(", ")}`);
  failed += failedChecks.length;
}
if (missing.length) console.log(`missing reports: ${missing.join(", ")}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
