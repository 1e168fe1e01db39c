#!/usr/bin/env node
/**
 * Fails when the TypeScript sources of apps/ and packages/ import each other in a cycle.
 * Reads imports with the compiler's pre-processor (no type-check), follows relative paths,
 * the web app's `~/` alias and `@switchyard/*` subpaths through each package's "exports".
 * Type-only imports count too: a cycle of types is still a tangle to untangle.
 * No cycle is allowed: two modules that need each other share a third that both import,
 * or one is handed the other's function (as the workflow engine's state runners are).
 * Folders split by concern import one way too (ONE_WAY): a subfolder imports only the
 * subfolders it is listed with, so a folder's layers stay layers and not just files apart.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const SKIP_DIRS = new Set([
  "node_modules",
  ".next",
  "dist",
  "generated",
  ".data",
  "test-results",
]);

const listTs = (dir, out = []) => {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) listTs(path.join(dir, entry.name), out);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(path.join(dir, entry.name));
    }
  }
  return out;
};

const sourceRoots = (root) => {
  const roots = [];
  for (const group of ["apps", "packages"]) {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const name of fs.readdirSync(groupDir)) {
      const src = path.join(groupDir, name, "src");
      if (fs.existsSync(src)) roots.push(src);
    }
  }
  return roots;
};

export const packageExports = (root) => {
  const map = new Map();
  for (const group of ["apps", "packages"]) {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const name of fs.readdirSync(groupDir)) {
      const pkgFile = path.join(groupDir, name, "package.json");
      if (!fs.existsSync(pkgFile)) continue;
      const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
      if (!pkg.name || !pkg.exports) continue;
      const exportsField = typeof pkg.exports === "string" ? { ".": pkg.exports } : pkg.exports;
      for (const [sub, target] of Object.entries(exportsField)) {
        const file =
          typeof target === "string" ? target : (target.types ?? target.import ?? target.default);
        if (typeof file !== "string") continue;
        const spec = sub === "." ? pkg.name : `${pkg.name}/${sub.replace(/^\.\//, "")}`;
        map.set(spec, path.resolve(groupDir, name, file));
      }
    }
  }
  return map;
};

const CANDIDATES = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

const resolveFile = (base) => {
  const stripped = base.replace(/\.(js|mjs|cjs)$/, "");
  for (const b of stripped === base ? [base] : [stripped, base]) {
    for (const ext of CANDIDATES) {
      const f = b + ext;
      if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
    }
  }
  return undefined;
};

export const resolveImport = (from, spec, exportsMap, root) => {
  if (spec.startsWith(".")) return resolveFile(path.resolve(path.dirname(from), spec));
  if (spec.startsWith("~/")) return resolveFile(path.join(root, "apps/web/src", spec.slice(2)));
  if (exportsMap.has(spec)) return exportsMap.get(spec);
  return undefined;
};

/** Every elementary cycle's strongly connected component, found with Tarjan's algorithm. */
const stronglyConnected = (graph) => {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const components = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), idx.get(w)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? new Set()).has(v)) components.push(comp);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return components;
};

/** One concrete loop through a component, starting at its alphabetically first file. */
const loopThrough = (graph, comp) => {
  const members = new Set(comp);
  const start = [...comp].sort()[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const loop = [];
        for (let x = v; x !== null; x = prev.get(x)) loop.unshift(x);
        return loop;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
};

/**
 * The subfolders of each folder below and the subfolders each may import; files directly in
 * the folder (its index.ts, the public entry) may import them all. A subfolder not listed is
 * an error, so a new one says where it stands.
 */
export const ONE_WAY = {
  "packages/core/src/workflow": {
    model: [],
    shell: ["model"],
    expression: ["model", "shell"],
    skills: ["model"],
    parse: ["model", "shell", "expression", "skills"],
    engine: ["model", "shell", "expression", "parse", "skills"],
    graph: ["model"],
  },
};

const subfolderOf = (folder, file) => {
  const rest = path.relative(folder, file).split(path.sep);
  return rest[0] === ".." || rest.length < 2 ? undefined : rest[0];
};

/** Imports between the subfolders of a ONE_WAY folder that its table does not allow. */
export const findWrongWayImports = (root = ROOT, graph = importGraph(root)) => {
  const wrong = [];
  for (const [folder, allowed] of Object.entries(ONE_WAY)) {
    for (const [file, deps] of graph) {
      const from = subfolderOf(folder, file);
      if (from === undefined) continue;
      if (!(from in allowed)) {
        wrong.push(`${file}: ${folder}/${from} is not in ONE_WAY`);
        continue;
      }
      for (const dep of deps) {
        const to = subfolderOf(folder, dep);
        if (to !== undefined && to !== from && !allowed[from].includes(to))
          wrong.push(`${file} -> ${dep}`);
        if (to === undefined && path.dirname(dep) === folder)
          wrong.push(`${file} -> ${dep} (the folder's entry)`);
      }
    }
  }
  return wrong.sort();
};

const importGraph = (root) => {
  const exportsMap = packageExports(root);
  const graph = new Map();
  for (const dir of sourceRoots(root)) {
    for (const file of listTs(dir)) {
      const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
      const deps = new Set();
      for (const ref of info.importedFiles) {
        const target = resolveImport(file, ref.fileName, exportsMap, root);
        if (target) deps.add(path.relative(root, target));
      }
      graph.set(path.relative(root, file), deps);
    }
  }
  return graph;
};

export const findImportCycles = (root = ROOT, graph = importGraph(root)) =>
  stronglyConnected(graph)
    .map((comp) => loopThrough(graph, comp))
    .sort((a, b) => a[0].localeCompare(b[0]));

const key = (cycle) => cycle.join(" -> ");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph(ROOT);
  const cycles = findImportCycles(ROOT, graph);
  const wrongWay = findWrongWayImports(ROOT, graph);
  if (cycles.length === 0) {
    console.log("no import cycles");
  } else {
    console.error(`${cycles.length} import cycle(s):`);
    for (const c of cycles) console.error(`  ${key([...c, c[0]])}`);
  }
  if (wrongWay.length === 0) {
    console.log(`imports run one way in ${Object.keys(ONE_WAY).join(", ")}`);
  } else {
    console.error(`${wrongWay.length} import(s) against the one-way order of ONE_WAY:`);
    for (const w of wrongWay) console.error(`  ${w}`);
  }
  if (cycles.length > 0 || wrongWay.length > 0) process.exit(1);
}
