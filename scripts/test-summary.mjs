// Prints one closing line over every runner's report: "Tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
// Each failure by its file and name, printed last, so the end of a long log says what broke.
const failures = [];
const rel = (file) => path.relative(process.cwd(), file);

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
  for (const f of r.testResults ?? []) {
    const tests = (f.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of tests) failures.push(`${name}: ${rel(f.name)} › ${t.fullName ?? t.title}`);
    if (f.status === "failed" && tests.length === 0)
      failures.push(
        `${name}: ${rel(f.name)} (the file failed: ${(f.message ?? "").split("\n")[0]})`,
      );
  }
  skipped += r.numPendingTests + r.numTodoTests;
}

const pw = path.join(dir, "playwright.json");
if (existsSync(pw)) {
  const report = JSON.parse(readFileSync(pw, "utf8"));
  const s = report.stats;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected" || t.status === "flaky")
          failures.push(
            `playwright${t.status === "flaky" ? " (flaky)" : ""}: ${spec.file ?? file}:${spec.line} › ${spec.title}`,
          );
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
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
if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
if (missing.length) console.log(`missing reports: ${missing.join(", ")}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
