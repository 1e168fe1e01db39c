/**
 * Reads a server-sent event stream as it arrives and streams each event's `data` into a
 * JsonScanner, one JSON document per event, without holding a line or an event: model
 * streams can carry megabytes in one event (a Responses `response.completed` repeats the
 * whole output). Lines end in LF, CRLF or CR, split anywhere between writes.
 */
import type { JsonScanner } from "./json-scanner";

/** Field names longer than this are not `data`. */
const MAX_FIELD = 16;

export class SseJsonReader {
  private state: "field" | "data" | "skip" = "field";
  private field = "";
  private afterColon = false;
  private lastWasCr = false;
  private eventHasData = false;

  constructor(private readonly scanner: JsonScanner) {}

  write(chunk: string): void {
    let i = 0;
    while (i < chunk.length) {
      const c = chunk[i]!;
      if (c === "\n" && this.lastWasCr) {
        this.lastWasCr = false;
        i++;
        continue;
      }
      this.lastWasCr = false;
      if (c === "\r" || c === "\n") {
        this.lastWasCr = c === "\r";
        this.endLine();
        i++;
        continue;
      }
      if (this.state === "field") {
        i++;
        if (c === ":") this.startValue();
        else if (this.field.length < MAX_FIELD) this.field += c;
        else this.state = "skip";
        continue;
      }
      const end = lineEnd(chunk, i);
      if (this.state === "data") {
        let from = i;
        if (this.afterColon && chunk[from] === " ") from++;
        this.afterColon = false;
        if (end > from) this.scanner.write(chunk.slice(from, end));
      }
      i = end;
    }
  }

  /** The stream ended: an event not closed by a blank line still counts. */
  end(): void {
    this.endLine();
    this.dispatch();
  }

  private startValue(): void {
    if (this.field === "data") {
      if (this.eventHasData) this.scanner.write("\n");
      this.eventHasData = true;
      this.state = "data";
      this.afterColon = true;
    } else this.state = "skip";
  }

  private endLine(): void {
    if (this.state === "field") {
      if (this.field === "") this.dispatch();
      else if (this.field === "data") this.startValue(); // `data` alone: an empty line of data
    }
    this.state = "field";
    this.field = "";
    this.afterColon = false;
  }

  private dispatch(): void {
    if (!this.eventHasData) return;
    this.scanner.end();
    this.scanner.reset();
    this.eventHasData = false;
  }
}

const LINE_END = /[\r\n]/g;

const lineEnd = (chunk: string, from: number) => {
  LINE_END.lastIndex = from;
  return LINE_END.exec(chunk)?.index ?? chunk.length;
};
