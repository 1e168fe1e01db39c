/**
 * Records to a JSONL file, for the proxy run by hand without a step channel: one
 * `tool_call` record per line, appended, flushed on close.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { RecordSink, SpanRecord, ToolCallRecord } from "./call-record";

/** A record sink that appends records and spans to a file as JSON lines. */
export class RecordFileSink implements RecordSink {
  private readonly stream: WriteStream;

  constructor(file: string) {
    this.stream = createWriteStream(file, { flags: "a", mode: 0o600 });
    this.stream.on("error", () => undefined);
  }

  record(record: ToolCallRecord): void {
    this.stream.write(`${JSON.stringify(record)}\n`);
  }

  span(_span: SpanRecord): void {
    // The record already carries the trace and span ids; a file reader needs nothing more.
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}

/** A record sink that drops everything. */
export const nullSink: RecordSink = {
  record: () => undefined,
  span: () => undefined,
  close: async () => undefined,
};
