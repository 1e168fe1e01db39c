// Every repository path the README and docs/*.md name exists: a path under apps/, packages/,
// scripts/, test/, docs/, prisma/ or bench/, in prose, code or a link (links from docs/ are
// read relative to docs/). Run-time paths (/opt/..., data folders) are not repository paths
// and are not checked; a path with a pattern in it (`*`, `<name>`, `…`) is not either.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TOP = ["apps", "packages", "scripts", "test", "docs", "prisma", "bench"];
const PATH = new RegExp(`(?<![\\w./~-])(?:\\./)?((?:${TOP.join("|")})/[\\w.@\\[\\]/+-]*)`, "g");
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

const files = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const missing = [];
for (const file of files) {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  lines.forEach((line, i) => {
    const seen = new Set();
    for (const m of line.matchAll(PATH)) {
      const rest = line.slice(m.index + m[0].length);
      if (/^[*<…{$]/.test(rest)) continue;
      seen.add(m[1].split("](")[0].replace(/[.,:;\]]+$/, ""));
    }
    for (const m of line.matchAll(LINK)) {
      if (/^[a-z]+:/i.test(m[1])) continue;
      seen.add(path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1])));
    }
    for (const p of seen)
      if (p && !existsSync(path.join(ROOT, p))) missing.push(`${file}:${i + 1}: ${p}`);
  });
}
if (missing.length > 0) {
  console.error(`${missing.length} path(s) named in the docs do not exist:\n${missing.join("\n")}`);
  process.exit(1);
}
console.log(`every repository path the docs name exists (${files.length} files)`);
