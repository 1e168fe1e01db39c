/**
 * Lines two sequences up by their longest common subsequence, the way a diff does: equal
 * items side by side, and between them the items only one side has, paired in order so a
 * changed item stands next to what replaced it. Used for a replay's tool-call sequence and
 * for its answer's lines.
 */

/** One row of an alignment: an item of each side, or of one side only. */
type Aligned<T> = { a?: T; b?: T; equal: boolean };

/** Past this many cells the table is not built: the sides are lined up by position instead. */
const MAX_CELLS = 4_000_000;

const byPosition = <T>(a: readonly T[], b: readonly T[], key: (item: T) => string) =>
  Array.from({ length: Math.max(a.length, b.length) }, (_, i): Aligned<T> => {
    const left = a[i];
    const right = b[i];
    return {
      ...(i < a.length ? { a: left } : {}),
      ...(i < b.length ? { b: right } : {}),
      equal: i < a.length && i < b.length && key(left as T) === key(right as T),
    };
  });

/** Pairs a run of items only one side had with the run the other side had there. */
const pairRun = <T>(onlyA: T[], onlyB: T[]): Aligned<T>[] =>
  Array.from({ length: Math.max(onlyA.length, onlyB.length) }, (_, i) => ({
    ...(i < onlyA.length ? { a: onlyA[i] } : {}),
    ...(i < onlyB.length ? { b: onlyB[i] } : {}),
    equal: false,
  }));

export const alignSequences = <T>(
  a: readonly T[],
  b: readonly T[],
  key: (item: T) => string,
): Aligned<T>[] => {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) return byPosition(a, b, key);
  const keysA = a.map(key);
  const keysB = b.map(key);
  const width = b.length + 1;
  // lcs[i * width + j]: the longest common subsequence of a[i..] and b[j..]
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        keysA[i] === keysB[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
  const rows: Aligned<T>[] = [];
  let onlyA: T[] = [];
  let onlyB: T[] = [];
  const flush = () => {
    rows.push(...pairRun(onlyA, onlyB));
    onlyA = [];
    onlyB = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && keysA[i] === keysB[j]) {
      flush();
      rows.push({ a: a[i], b: b[j], equal: true });
      i++;
      j++;
    } else if (
      j >= b.length ||
      (i < a.length && (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))
    ) {
      onlyA.push(a[i++] as T);
    } else {
      onlyB.push(b[j++] as T);
    }
  }
  flush();
  return rows;
};

/** A line of a text diff: in both, removed (only in a) or added (only in b), with its line numbers. */
export type TextDiffLine = {
  kind: "context" | "del" | "add";
  text: string;
  oldLine?: number;
  newLine?: number;
};

/** A line diff of two texts (every line, so a short answer reads whole). */
export const diffLines = (a: string, b: string): TextDiffLine[] => {
  const rows = alignSequences(a.split("\n"), b.split("\n"), (line) => line);
  const lines: TextDiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const row of rows) {
    if (row.equal) {
      lines.push({ kind: "context", text: row.a ?? "", oldLine: ++oldLine, newLine: ++newLine });
      continue;
    }
    if (row.a !== undefined) lines.push({ kind: "del", text: row.a, oldLine: ++oldLine });
    if (row.b !== undefined) lines.push({ kind: "add", text: row.b, newLine: ++newLine });
  }
  // a changed run reads better as all its removals, then all its additions
  return groupChanges(lines);
};

const groupChanges = (lines: TextDiffLine[]) => {
  const out: TextDiffLine[] = [];
  let dels: TextDiffLine[] = [];
  let adds: TextDiffLine[] = [];
  const flush = () => {
    out.push(...dels, ...adds);
    dels = [];
    adds = [];
  };
  for (const line of lines) {
    if (line.kind === "del") dels.push(line);
    else if (line.kind === "add") adds.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
};
