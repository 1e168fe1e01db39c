/**
 * What each page of the built dashboard ships before it can run: the JavaScript and CSS a
 * first visit loads (the framework's root chunks and the page's entry chunks with those of
 * its layouts, as the build's client reference manifests list them), in bytes and gzipped.
 * Chunks loaded later (`import()` of a lazy part) are not counted: they are not needed to
 * become interactive.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export type RouteBundle = { route: string; files: number; bytes: number; gzip: number };

type RscManifest = {
  entryJSFiles?: Record<string, string[]>;
  entryCSSFiles?: Record<string, { path: string }[] | string[]>;
};

const manifestsUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return manifestsUnder(full);
    return entry.name === "page_client-reference-manifest.js" ? [full] : [];
  });

/** The route a manifest's key names: `/(dashboard)/runs/[id]/page` → `/runs/[id]`. */
const routeOf = (key: string) =>
  key
    .replace(/\/page$/, "")
    .split("/")
    .filter((part) => !/^\(.*\)$/.test(part))
    .join("/") || "/";

/** Every page's first-load bundle, largest first, from the build in `distDir` (apps/web/.next). */
export const routeBundles = (distDir: string): RouteBundle[] => {
  const appDir = path.join(distDir, "server/app");
  if (!existsSync(appDir)) return [];
  const build = JSON.parse(readFileSync(path.join(distDir, "build-manifest.json"), "utf8")) as {
    rootMainFiles?: string[];
    polyfillFiles?: string[];
  };
  const sizes = new Map<string, { bytes: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const full = path.join(distDir, file.replace(/^\/_next\//, ""));
      size = existsSync(full)
        ? { bytes: statSync(full).size, gzip: gzipSync(readFileSync(full)).length }
        : { bytes: 0, gzip: 0 };
      sizes.set(file, size);
    }
    return size;
  };
  return manifestsUnder(appDir)
    .map((file) => {
      const text = readFileSync(file, "utf8");
      const key = /__RSC_MANIFEST\["([^"]+)"\]/.exec(text)?.[1] ?? file;
      const manifest = JSON.parse(
        text.slice(text.indexOf("= {") + 2).replace(/;\s*$/, ""),
      ) as RscManifest;
      const files = new Set<string>([...(build.rootMainFiles ?? [])]);
      for (const list of Object.values(manifest.entryJSFiles ?? {}))
        for (const chunk of list) files.add(chunk);
      for (const list of Object.values(manifest.entryCSSFiles ?? {}))
        for (const css of list) files.add(typeof css === "string" ? css : css.path);
      let bytes = 0;
      let gzip = 0;
      for (const f of files) {
        const size = sizeOf(f);
        bytes += size.bytes;
        gzip += size.gzip;
      }
      return { route: routeOf(key), files: files.size, bytes, gzip };
    })
    .sort((a, b) => b.gzip - a.gzip);
};
