/**
 * toolrt's own OTLP encoder against the official definitions: every request it can build decodes
 * with the protobufjs code generated from opentelemetry-proto, and its OTLP/JSON says the same
 * thing as its protobuf, key for key.
 */
import { describe, expect, test } from "bun:test";
import { encodeJson } from "../../src/telemetry/otlp/json.ts";
import { encodeProtobuf } from "../../src/telemetry/otlp/protobuf.ts";
import {
  EXPORT_LOGS_REQUEST,
  EXPORT_METRICS_REQUEST,
  EXPORT_TRACE_REQUEST,
  type MessageType,
} from "../../src/telemetry/otlp/schema.ts";
import type { LogsRequest, MetricsRequest, TraceRequest } from "../../src/telemetry/otlp/types.ts";
import { keyValues } from "../../src/telemetry/otlp/values.ts";
import { decodeOtlpJson, decodeOtlpProtobuf, type Signal } from "../helpers/otlp-decode.ts";

const scope = { name: "toolrt", version: "0.1.0" };
const resource = {
  attributes: keyValues({
    "service.name": "toolrt",
    zero: 0n,
    negative: -42n,
    big: 9_007_199_254_740_993n,
    double: 0.25,
    no: false,
    empty: "",
    list: ["a", "ü€😀"],
    ids: [1n, 22n],
  }),
};

const logs: LogsRequest = {
  resourceLogs: [{
    resource,
    scopeLogs: [{
      scope,
      logRecords: [{
        timeUnixNano: 1_764_000_000_123_456_789n,
        observedTimeUnixNano: 1_764_000_000_123_456_999n,
        severityNumber: 9,
        severityText: "INFO",
        eventName: "toolrt.tool_decision",
        body: { stringValue: "toolrt.tool_decision" },
        attributes: keyValues({ "toolrt.tool.input": '{"command":"ls \\"a b\\""}' }),
        traceId: Buffer.from("0af7651916cd43dd8448eb211c80319c", "hex"),
        spanId: Buffer.from("b7ad6b7169203331", "hex"),
      }, {
        timeUnixNano: 1n,
        observedTimeUnixNano: 2n,
        severityNumber: 13,
        severityText: "WARN",
        eventName: "toolrt.notice",
        body: {},
        attributes: [],
      }],
    }],
  }],
};

const traces: TraceRequest = {
  resourceSpans: [{
    resource,
    scopeSpans: [{
      scope,
      spans: [{
        traceId: Buffer.from("0af7651916cd43dd8448eb211c80319c", "hex"),
        spanId: Buffer.from("00f067aa0ba902b7", "hex"),
        parentSpanId: Buffer.from("b7ad6b7169203331", "hex"),
        name: "toolrt.tool_call",
        kind: 1,
        startTimeUnixNano: 10n,
        endTimeUnixNano: 20n,
        attributes: keyValues({ "gen_ai.tool.name": "Bash" }),
        links: [{
          traceId: Buffer.from("1af7651916cd43dd8448eb211c80319c", "hex"),
          spanId: Buffer.from("10f067aa0ba902b7", "hex"),
          attributes: [],
        }],
        status: { code: 2, message: "denied" },
      }],
    }],
  }],
};

const metrics: MetricsRequest = {
  resourceMetrics: [{
    resource,
    scopeMetrics: [{
      scope,
      metrics: [{
        name: "toolrt.decisions",
        description: "Permission decisions",
        unit: "{decision}",
        sum: {
          aggregationTemporality: 1,
          isMonotonic: true,
          dataPoints: [{
            attributes: keyValues({ d: "deny" }),
            startTimeUnixNano: 1n,
            timeUnixNano: 2n,
            asInt: 0n,
          }],
        },
      }, {
        name: "toolrt.call.duration",
        description: "",
        unit: "ms",
        histogram: {
          aggregationTemporality: 2,
          dataPoints: [{
            attributes: [],
            startTimeUnixNano: 1n,
            timeUnixNano: 2n,
            count: 3n,
            sum: 0,
            min: 0,
            max: 12.5,
            explicitBounds: [0, 5, 10],
            bucketCounts: [1n, 0n, 1n, 1n],
          }],
        },
      }],
    }],
  }],
};

const CASES: [Signal, MessageType, object][] = [
  ["logs", EXPORT_LOGS_REQUEST, logs],
  ["traces", EXPORT_TRACE_REQUEST, traces],
  ["metrics", EXPORT_METRICS_REQUEST, metrics],
];

describe("OTLP encoding against opentelemetry-proto", () => {
  for (const [signal, type, request] of CASES) {
    test(`${signal}: protobuf and JSON decode to the same request`, () => {
      const fromProtobuf = decodeOtlpProtobuf(signal, encodeProtobuf(type, request));
      const fromJson = decodeOtlpJson(signal, encodeJson(type, request));
      expect(fromJson).toEqual(fromProtobuf);
    });
  }

  test("values survive exactly: 64-bit integers, zero in a oneof, false, unicode, ids in hex", () => {
    const decoded = decodeOtlpProtobuf("logs", encodeProtobuf(EXPORT_LOGS_REQUEST, logs)) as any;
    const attributes = Object.fromEntries(
      decoded.resourceLogs[0].resource.attributes.map((kv: any) => [kv.key, kv.value]),
    );
    expect(attributes).toEqual({
      "service.name": { stringValue: "toolrt" },
      zero: { intValue: "0" },
      negative: { intValue: "-42" },
      big: { intValue: "9007199254740993" },
      double: { doubleValue: 0.25 },
      no: { boolValue: false },
      empty: { stringValue: "" },
      list: { arrayValue: { values: [{ stringValue: "a" }, { stringValue: "ü€😀" }] } },
      ids: { arrayValue: { values: [{ intValue: "1" }, { intValue: "22" }] } },
    });
    const record = decoded.resourceLogs[0].scopeLogs[0].logRecords[0];
    expect(record).toMatchObject({
      timeUnixNano: "1764000000123456789",
      eventName: "toolrt.tool_decision",
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
    });
  });

  test("the histogram keeps its buckets and a zero sum; a zero counter is still a point", () => {
    const decoded = decodeOtlpProtobuf("metrics", encodeProtobuf(EXPORT_METRICS_REQUEST, metrics)) as any;
    const [sum, histogram] = decoded.resourceMetrics[0].scopeMetrics[0].metrics;
    expect(sum.sum.dataPoints[0].asInt).toBe("0");
    expect(histogram.histogram.dataPoints[0]).toMatchObject({
      count: "3",
      sum: 0,
      min: 0,
      max: 12.5,
      bucketCounts: ["1", "0", "1", "1"],
      explicitBounds: [0, 5, 10],
    });
  });

  test("the JSON checker itself rejects a key the definitions do not know", () => {
    const json = encodeJson(EXPORT_LOGS_REQUEST, logs).replace('"eventName"', '"event_name_typo"');
    expect(() => decodeOtlpJson("logs", json)).toThrow("fields the definitions do not know");
  });
});
