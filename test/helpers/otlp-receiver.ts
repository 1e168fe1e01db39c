/**
 * A minimal OTLP/HTTP JSON trace receiver on 127.0.0.1, for asserting what a process exports.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind?: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  service?: string;
};

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type KeyValue = { key: string; value: AnyValue };
type ExportBody = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, "attributes" | "service"> & { attributes?: KeyValue[] })[];
    }[];
  }[];
};

const valueOf = (v: AnyValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attrs = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]));

export const startOtlpReceiver = async () => {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportBody;
        for (const rs of body.resourceSpans ?? []) {
          const service = attrs(rs.resource?.attributes)["service.name"] as string | undefined;
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? [])
              spans.push({ ...s, attributes: attrs(s.attributes), service });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};
