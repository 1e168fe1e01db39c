/**
 * Holds every tools/call result the proxy returns to a size agent CLIs take whole: text over
 * the cap is cut at a UTF-8 boundary and ends with a marker naming the workspace file that
 * keeps the full text, written through the built-ins' confinement so the agent can Read it in
 * parts. A file that cannot be written never fails the call; the marker says the text is lost.
 */
import { randomBytes } from "node:crypto";
import { Confinement, utf8Head, writeAtomically, type ToolResult } from "../tools";

const DEFAULT_RESULT_CAP_BYTES = 64 * 1024;
/** Where full texts go, relative to root_dir. */
const RESULTS_DIR = ".switchyard/results";
export const MIN_RESULT_CAP_BYTES = 4 * 1024;
export const MAX_RESULT_CAP_BYTES = 1024 * 1024;
/** Room left under the cap for the marker line. */
const MARKER_ROOM = 512;
const REASON_MAX = 100;
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What a cut result's record says: the full size and the kept file (null if none). */
export type ResultCut = { bytes: number; file: string | null };

type CappedResult = { result: ToolResult; cut?: ResultCut };

type Block = ToolResult["content"][number];

const count = (n: number): string => n.toLocaleString("en-US");

const lineCount = (text: string): number => {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.length === 0 || text.endsWith("\n") ? n : n + 1;
};

const reasonOf = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException;
  const text = e.code ?? (e instanceof Error ? e.message : String(error));
  return text.length <= REASON_MAX ? text : `${text.slice(0, REASON_MAX - 1)}…`;
};

/** The text blocks' head within `budget` bytes, counting the newline that joins two blocks. */
const headOf = (content: Block[], budget: number): { content: Block[]; text: string } => {
  let left = budget;
  let text = "";
  let first = true;
  const kept: Block[] = [];
  for (const block of content) {
    if (block.type !== "text") {
      kept.push(block);
      continue;
    }
    const separator = first ? "" : "\n";
    first = false;
    if (left <= separator.length) continue;
    const head = utf8Head(block.text, left - separator.length);
    left -= separator.length + Buffer.byteLength(head);
    text += separator + head;
    if (head.length > 0) kept.push(head === block.text ? block : { ...block, text: head });
  }
  return { content: kept, text };
};

export class ResultCap {
  private confinement: Confinement | undefined;

  constructor(
    private readonly root: string,
    readonly capBytes: number = DEFAULT_RESULT_CAP_BYTES,
  ) {}

  /** Caps `result`; `id` (the call's span id) names the kept file. */
  async apply(result: ToolResult, id: string): Promise<CappedResult> {
    const texts = result.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) + texts.length - 1;
    if (texts.length === 0 || bytes <= this.capBytes) return { result };
    const full = texts.join("\n");
    const head = headOf(result.content, this.capBytes - MARKER_ROOM);
    const shown = `output cut at ${count(Buffer.byteLength(head.text))} of ${count(bytes)} bytes`;
    let marker: string;
    let file: string | null = null;
    try {
      file = await this.keep(full, id);
      const lines = lineCount(full);
      const kept = `${shown}; the full text (${count(lines)} ${lines === 1 ? "line" : "lines"}) is in ${file}`;
      const whole = head.text.lastIndexOf("\n") + 1;
      marker =
        whole > 0
          ? `${kept}; Read it with offset/limit, continuing at offset ${lineCount(head.text.slice(0, whole)) + 1}`
          : `${kept}; its first line alone is over the cap, so Read cannot page it: search it with Grep or slice it with Bash (head -c, tail -c)`;
    } catch (error) {
      marker = `${shown}; the full text could not be kept (${reasonOf(error)}); narrow the call to see the rest`;
    }
    const content: Block[] = [...head.content, { type: "text", text: `\n[switchyard: ${marker}]` }];
    return { result: { ...result, content }, cut: { bytes, file } };
  }

  private async keep(text: string, id: string): Promise<string> {
    this.confinement ??= await Confinement.create(this.root);
    const name = SAFE_ID.test(id) ? id : randomBytes(8).toString("hex");
    const file = `${RESULTS_DIR}/${name}.txt`;
    await writeAtomically(this.confinement, file, text);
    return file;
  }
}
