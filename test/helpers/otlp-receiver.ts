/**
 * An OTLP/HTTP receiver on 127.0.0.1 (port 0) for tests: it takes /v1/logs, /v1/metrics and
 * /v1/traces in protobuf or JSON, decodes each body with the official definitions
 * (otlp-decode.ts) and keeps the requests. `status` makes it refuse; `hold` makes it never answer.
 */
import { decodeOtlpJson, decodeOtlpProtobuf, type Signal } from "./otlp-decode.ts";

export interface Received {
  signal: Signal;
  contentType: string;
  headers: Record<string, string>;
  /** The raw body, to search for what must never be sent. */
  raw: string;
  request: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answer every request with this status (default 200). */
  status: number;
  /** Leave requests unanswered (a collector that hangs). */
  hold: boolean;
  /** Every log record received, flattened with its resource attributes. */
  logs(): LogSeen[];
  spans(): SpanSeen[];
  metrics(): MetricSeen[];
  /** Resolves once `predicate` holds for what was received, or rejects after `ms`. */
  waitFor(predicate: (r: Receiver) => boolean, ms?: number): Promise<void>;
  stop(): void;
}

export interface LogSeen {
  eventName: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  traceId?: string;
  spanId?: string;
}

export interface SpanSeen {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

export interface MetricSeen {
  name: string;
  points: { attributes: Record<string, unknown>; value: unknown }[];
  resource: Record<string, unknown>;
}

const SIGNAL_OF: Record<string, Signal> = {
  "/v1/logs": "logs",
  "/v1/metrics": "metrics",
  "/v1/traces": "traces",
};

export function startReceiver(): Receiver {
  const received: Received[] = [];
  const waiting = new Set<() => void>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const signal = SIGNAL_OF[new URL(request.url).pathname];
      if (!signal) return new Response("not found", { status: 404 });
      const body = new Uint8Array(await request.arrayBuffer());
      if (receiver.hold) return new Promise<Response>(() => {});
      const contentType = request.headers.get("content-type") ?? "";
      const raw = new TextDecoder().decode(body);
      const decoded = contentType === "application/json"
        ? decodeOtlpJson(signal, raw)
        : decodeOtlpProtobuf(signal, body);
      received.push({
        signal,
        contentType,
        headers: Object.fromEntries(request.headers),
        raw,
        request: decoded,
      });
      for (const wake of waiting) wake();
      return new Response(receiver.status === 200 ? "{}" : "refused", {
        status: receiver.status,
        headers: { "content-type": "application/json" },
      });
    },
  });
  const receiver: Receiver = {
    url: `http://127.0.0.1:${server.port}`,
    received,
    status: 200,
    hold: false,
    logs: () =>
      received.filter((r) => r.signal === "logs").flatMap((r) =>
        list(r.request.resourceLogs).flatMap((rl) =>
          list(rl.scopeLogs).flatMap((sl) =>
            list(sl.logRecords).map((record) => ({
              eventName: record.eventName,
              attributes: attributes(record.attributes),
              resource: attributes(rl.resource?.attributes),
              traceId: record.traceId,
              spanId: record.spanId,
            }))
          )
        )
      ),
    spans: () =>
      received.filter((r) => r.signal === "traces").flatMap((r) =>
        list(r.request.resourceSpans).flatMap((rs) =>
          list(rs.scopeSpans).flatMap((ss) =>
            list(ss.spans).map((span) => ({ ...span, attributes: attributes(span.attributes) }))
          )
        )
      ),
    metrics: () =>
      received.filter((r) => r.signal === "metrics").flatMap((r) =>
        list(r.request.resourceMetrics).flatMap((rm) =>
          list(rm.scopeMetrics).flatMap((sm) =>
            list(sm.metrics).map((metric) => ({
              name: metric.name,
              resource: attributes(rm.resource?.attributes),
              points: list(metric.sum?.dataPoints ?? metric.histogram?.dataPoints).map((p) => ({
                attributes: attributes(p.attributes),
                value: p.asInt ?? p.count,
              })),
            }))
          )
        )
      ),
    waitFor: (predicate, ms = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver)) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`the receiver did not get what was expected within ${ms} ms`));
        }, ms);
        waiting.add(check);
        check();
      }),
    stop: () => server.stop(true),
  };
  return receiver;
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** OTLP key-value lists as a plain object: strings, booleans, numbers, int64 as strings, arrays. */
function attributes(kvs: unknown): Record<string, unknown> {
  return Object.fromEntries(list(kvs).map((kv) => [kv.key, plain(kv.value)]));
}

function plain(value: any): unknown {
  if (!value) return undefined;
  if ("arrayValue" in value) return list(value.arrayValue.values).map(plain);
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
}
