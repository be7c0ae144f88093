/**
 * One export request on the wire: encoded as the target's protocol asks (http/protobuf or
 * http/json) and POSTed to its URL with its headers, or written to stderr for the console exporter.
 * A failure says whether trying again later may help (the collector is down, slow or overloaded)
 * or not (it refused the request).
 */
import type { Protocol, Signal, SignalTarget } from "./config.ts";
import { encodeJson } from "./otlp/json.ts";
import { encodeProtobuf } from "./otlp/protobuf.ts";
import {
  EXPORT_LOGS_REQUEST,
  EXPORT_METRICS_REQUEST,
  EXPORT_TRACE_REQUEST,
  type MessageType,
} from "./otlp/schema.ts";
import type { LogsRequest, MetricsRequest, TraceRequest } from "./otlp/types.ts";

export interface Payload {
  signal: Signal;
  contentType: "application/x-protobuf" | "application/json";
  body: Uint8Array;
}

export type SendResult = { ok: true } | { ok: false; retryable: boolean; why: string };

const REQUEST_TYPE: Record<Signal, MessageType> = {
  logs: EXPORT_LOGS_REQUEST,
  metrics: EXPORT_METRICS_REQUEST,
  traces: EXPORT_TRACE_REQUEST,
};

export type ExportRequest = LogsRequest | MetricsRequest | TraceRequest;

export function encodeRequest(signal: Signal, protocol: Protocol, request: ExportRequest): Payload {
  return protocol === "http/json"
    ? {
      signal,
      contentType: "application/json",
      body: new TextEncoder().encode(encodeJson(REQUEST_TYPE[signal], request)),
    }
    : { signal, contentType: "application/x-protobuf", body: encodeProtobuf(REQUEST_TYPE[signal], request) };
}

/** Statuses the OTLP specification calls retryable. */
const RETRYABLE = new Set([429, 502, 503, 504]);

export async function send(
  target: SignalTarget,
  payload: Payload,
  deadline: AbortSignal,
): Promise<SendResult> {
  if (target.kind === "console") {
    process.stderr.write(`${new TextDecoder().decode(payload.body)}\n`);
    return { ok: true };
  }
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: "POST",
      headers: { ...target.headers, "content-type": payload.contentType },
      body: payload.body,
      signal: AbortSignal.any([deadline, AbortSignal.timeout(target.timeoutMs)]),
    });
  } catch (error) {
    const code = (error as { code?: string; name?: string }).code ?? (error as Error).name;
    return { ok: false, retryable: true, why: `${target.url}: ${code ?? "unreachable"}` };
  }
  // The body is not needed (partial-success details are not acted on); read it so the connection is free.
  await response.arrayBuffer().catch(() => {});
  if (response.ok) return { ok: true };
  return {
    ok: false,
    retryable: RETRYABLE.has(response.status),
    why: `${target.url}: HTTP ${response.status}`,
  };
}
