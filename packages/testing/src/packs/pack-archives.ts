/**
 * Builds .tar.gz archives entry by entry for the pack tests, hostile ones included
 * (`..` paths, links out, special files) that a tar command would not write.
 */
import { gzipSync } from "node:zlib";

export type TarEntry = {
  path: string;
  content?: string;
  type?: "0" | "1" | "2" | "5" | "3";
  link?: string;
};

const field = (b: Buffer, at: number, length: number, value: string) => {
  b.write(value.slice(0, length), at, "utf8");
};

const header = (e: TarEntry, size: number) => {
  const b = Buffer.alloc(512);
  field(b, 0, 100, e.path);
  field(b, 100, 8, "0000644\0");
  field(b, 108, 8, "0000000\0");
  field(b, 116, 8, "0000000\0");
  field(b, 124, 12, `${size.toString(8).padStart(11, "0")}\0`);
  field(b, 136, 12, "00000000000\0");
  b.fill(" ", 148, 156);
  field(b, 156, 1, e.type ?? "0");
  field(b, 157, 100, e.link ?? "");
  field(b, 257, 6, "ustar\0");
  field(b, 263, 2, "00");
  let sum = 0;
  for (const byte of b) sum += byte;
  field(b, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return b;
};

export const tarGz = (entries: TarEntry[]) => {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.content ?? "");
    parts.push(header(e, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
};

export const MANIFEST = `name: speckit
version: "1.0.0"
description: Specification workflows
awf_version: ">=0.5.0"
workflows:
  - specify
`;

export const SPECIFY = `name: specify
states:
  initial: run
  run:
    type: step
    script_file: scripts/hello.sh
    on_success: done
  done:
    type: terminal
`;

/** A pack that reads: one workflow, one script, one prompt. */
export const goodPack = (manifest = MANIFEST) =>
  tarGz([
    { path: "manifest.yaml", content: manifest },
    { path: "workflows/", type: "5" },
    { path: "workflows/specify.yaml", content: SPECIFY },
    {
      path: "scripts/hello.sh",
      content: 'echo "hello from {{ trimSpace (readFile "prompts/greeting.md") }}"\n',
    },
    { path: "prompts/greeting.md", content: "the pack prompt\n" },
    { path: "README.md", content: "# speckit\n" },
  ]);

/** The next version (1.1.0) of the pack `manifest` names: another script and prompt. */
export const nextPackVersion = (manifest = MANIFEST) =>
  tarGz([
    { path: "manifest.yaml", content: manifest.replace('"1.0.0"', '"1.1.0"') },
    { path: "workflows/specify.yaml", content: SPECIFY },
    {
      path: "scripts/hello.sh",
      content: 'echo "v2 says {{ trimSpace (readFile "prompts/greeting.md") }}"\n',
    },
    { path: "prompts/greeting.md", content: "the new prompt\n" },
  ]);
