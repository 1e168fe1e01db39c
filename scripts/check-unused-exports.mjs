#!/usr/bin/env node
/**
 * Fails when packages/core or packages/db export something no other file imports: an
 * export is API someone must keep, so what nobody uses loses its `export` (or goes).
 * Imports are read from every source, test, bench and script file of the repository with
 * the compiler's parser (no type-check) and followed through barrels (`export { x } from`,
 * `export * from`), so a name a barrel re-exports counts only when a consumer imports it.
 * A namespace or dynamic import uses every export of its module; a module's own test
 * counts as a user. Exports that predate the check in folders still being reworked are
 * allow-listed below; remove an entry when its export is used or gone, never add one.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { packageExports, resolveImport, SKIP_DIRS } from "./check-import-cycles.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `file: name` of exports that predate the check; never add one. */
export const ALLOWED_UNUSED = new Set(["packages/db/src/seed.ts: SeedOptions"]);
/** Folders whose exports are not checked yet: they are being reworked. */
export const UNCHECKED = ["packages/core/src/gateway/", "packages/core/src/providers/"];

const CHECKED = ["packages/core/src/", "packages/db/src/"];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const TEST = /\.(test|spec)\.tsx?$/;

const listSources = (dir, out = []) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) listSources(full, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
};

const hasExport = (node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** What one file declares as exports, re-exports from others, and imports. */
const readModule = (file, text) => {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const mod = { declared: new Set(), reexports: [], stars: [], imports: [] };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause?.name) mod.imports.push({ spec, name: "default" });
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) mod.imports.push({ spec, name: "*" });
      else if (bindings)
        for (const el of bindings.elements)
          mod.imports.push({ spec, name: (el.propertyName ?? el.name).text });
    } else if (ts.isExportDeclaration(st)) {
      const spec =
        st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)
          ? st.moduleSpecifier.text
          : undefined;
      const clause = st.exportClause;
      if (spec && !clause) mod.stars.push(spec);
      else if (spec && ts.isNamespaceExport(clause))
        mod.reexports.push({ as: clause.name.text, spec, name: "*" });
      else if (clause && ts.isNamedExports(clause))
        for (const el of clause.elements) {
          if (spec)
            mod.reexports.push({ as: el.name.text, spec, name: (el.propertyName ?? el.name).text });
          else mod.declared.add(el.name.text);
        }
    } else if (hasExport(st)) {
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations)
          if (ts.isIdentifier(d.name)) mod.declared.add(d.name.text);
      } else if (st.name && ts.isIdentifier(st.name)) mod.declared.add(st.name.text);
    }
  }
  // import("x") and `typeof import("x")` use the whole module.
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      mod.imports.push({ spec: node.arguments[0].text, name: "*" });
    if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      mod.imports.push({ spec: node.argument.literal.text, name: "*" });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return mod;
};

export const findUnusedExports = (root = ROOT) => {
  const exportsMap = packageExports(root);
  const files = listSources(root);
  const modules = new Map(files.map((f) => [f, readModule(f, fs.readFileSync(f, "utf8"))]));
  const resolve = (from, spec) => resolveImport(from, spec, exportsMap, root);
  const used = new Set();
  const seen = new Set();
  const use = (file, name) => {
    const mod = file && modules.get(file);
    if (!mod || seen.has(`${file}#${name}`)) return;
    seen.add(`${file}#${name}`);
    if (name === "*") {
      for (const n of mod.declared) used.add(`${file}#${n}`);
      for (const r of mod.reexports) use(resolve(file, r.spec), r.name);
      for (const s of mod.stars) use(resolve(file, s), "*");
      return;
    }
    if (mod.declared.has(name)) used.add(`${file}#${name}`);
    for (const r of mod.reexports) if (r.as === name) use(resolve(file, r.spec), r.name);
    for (const s of mod.stars) use(resolve(file, s), name);
  };
  for (const [file, mod] of modules)
    for (const i of mod.imports) use(resolve(file, i.spec), i.name);

  const unused = [];
  for (const [file, mod] of modules) {
    const rel = path.relative(root, file);
    if (!CHECKED.some((d) => rel.startsWith(d)) || UNCHECKED.some((d) => rel.startsWith(d)))
      continue;
    if (TEST.test(rel) || path.basename(rel).startsWith("index.")) continue;
    for (const name of mod.declared)
      if (!used.has(`${file}#${name}`)) unused.push(`${rel}: ${name}`);
  }
  return unused.sort();
};

export const newUnusedExports = (root = ROOT) =>
  findUnusedExports(root).filter((e) => !ALLOWED_UNUSED.has(e));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const unused = newUnusedExports();
  if (unused.length === 0) console.log("no unused exports");
  else {
    console.error(`${unused.length} export(s) nobody imports (remove the export, or the code):`);
    for (const u of unused) console.error(`  ${u}`);
    process.exit(1);
  }
}
