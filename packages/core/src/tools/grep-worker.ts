/**
 * Runs Grep's regular expression off the main thread with a deadline. A catastrophic
 * pattern (exponential backtracking) would otherwise freeze the whole proxy; here the
 * worker is terminated when the budget runs out and the call fails with a clear message.
 */
import { runBudgetedWorker } from "../patterns/budgeted-worker";

type GrepJob = {
  /** Real workspace root: a file whose opened path is elsewhere is skipped. */
  root: string;
  pattern: string;
  flags: string;
  files: { full: string; relative: string }[];
  mode: "content" | "files_with_matches" | "count";
  maxLines: number;
  maxLineLength: number;
  maxFileBytes: number;
};

type GrepFound = {
  lines: string[];
  matchedFiles: number;
  skippedBinary: number;
  truncated: boolean;
};

// Plain JavaScript evaluated in the worker, so it needs no loader for TypeScript.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const job = workerData;
const re = new RegExp(job.pattern, job.flags);
const lines = [];
let matchedFiles = 0, skippedBinary = 0, truncated = false;
outer: for (const file of job.files) {
  let buf;
  try {
    const fd = fs.openSync(file.full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.nlink > 1) continue;
      let actual;
      try { actual = fs.readlinkSync("/proc/self/fd/" + fd); } catch {}
      if (actual && actual.startsWith("/") && actual !== job.root && !actual.startsWith(job.root + "/")) continue;
      const size = Math.min(st.size, job.maxFileBytes);
      buf = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) { const n = fs.readSync(fd, buf, filled, size - filled, filled); if (n === 0) break; filled += n; }
      buf = buf.subarray(0, filled);
    } finally { fs.closeSync(fd); }
  } catch { continue; }
  if (buf.subarray(0, 8192).includes(0)) { skippedBinary++; continue; }
  const text = buf.toString("utf8").split("\\n");
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const line = text[i];
    if (!re.test(line)) continue;
    count++;
    if (job.mode === "content") {
      if (lines.length >= job.maxLines) { truncated = true; break outer; }
      const shown = line.length > job.maxLineLength ? line.slice(0, job.maxLineLength) + "…" : line;
      lines.push(file.relative + ":" + (i + 1) + ":" + shown);
    } else if (job.mode === "files_with_matches") break;
  }
  if (count > 0) {
    matchedFiles++;
    if (job.mode === "files_with_matches") {
      if (lines.length >= job.maxLines) { truncated = true; break; }
      lines.push(file.relative);
    } else if (job.mode === "count") {
      if (lines.length >= job.maxLines) { truncated = true; break; }
      lines.push(file.relative + ":" + count);
    }
  }
}
parentPort.postMessage({ done: { lines, matchedFiles, skippedBinary, truncated } });
`;

export const runGrepJob = (job: GrepJob, budgetMs: number, signal: AbortSignal) =>
  runBudgetedWorker<GrepFound>(WORKER_SOURCE, job, { budgetMs, signal });
