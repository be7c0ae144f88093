/**
 * Counters and the call-duration histogram, aggregated per attribute set between collections.
 * Delta temporality (the default) reports what happened since the last collection and starts
 * again; cumulative reports totals since the process started.
 */
import type { CounterName, MetricUpdate } from "./records.ts";
import { type Attributes, attributesKey, keyValues } from "./otlp/values.ts";
import { type Metric, TEMPORALITY } from "./otlp/types.ts";

const DESCRIPTIONS: Record<CounterName | "toolrt.call.duration", [string, string]> = {
  "toolrt.decisions": ["Permission decisions, by tool, decision and deciding source", "{decision}"],
  "toolrt.calls": ["Tool calls that finished, by tool and outcome", "{call}"],
  "toolrt.prompts": ["Calls a person was asked about", "{prompt}"],
  "toolrt.sandbox.violations": [
    "Sandboxed commands stopped from writing, reading or connecting",
    "{violation}",
  ],
  "toolrt.telemetry.dropped": [
    "Telemetry records lost (queue full, collector refused, no room to keep them)",
    "{record}",
  ],
  "toolrt.call.duration": ["Tool call duration, from lookup to result", "ms"],
};

/** OpenTelemetry's default explicit bucket bounds, in milliseconds. */
const BOUNDS = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

interface Series {
  attributes: Attributes;
  count: number;
  sum: number;
  min: number;
  max: number;
  buckets: number[];
}

export class MetricAggregator {
  readonly #temporality: "delta" | "cumulative";
  readonly #series = new Map<string, Map<string, Series>>();
  readonly #processStart: bigint;
  #lastCollect: bigint;

  constructor(temporality: "delta" | "cumulative", now: bigint) {
    this.#temporality = temporality;
    this.#processStart = now;
    this.#lastCollect = now;
  }

  add(update: MetricUpdate): void {
    let byName = this.#series.get(update.name);
    if (!byName) this.#series.set(update.name, byName = new Map());
    const key = attributesKey(update.attributes);
    let series = byName.get(key);
    if (!series) {
      series = {
        attributes: update.attributes,
        count: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
        buckets: [],
      };
      byName.set(key, series);
    }
    series.count += update.kind === "counter" ? update.by ?? 1 : 1;
    if (update.kind === "histogram") {
      series.sum += update.value;
      series.min = Math.min(series.min, update.value);
      series.max = Math.max(series.max, update.value);
      const bucket = BOUNDS.findIndex((bound) => update.value <= bound);
      const index = bucket === -1 ? BOUNDS.length : bucket;
      series.buckets[index] = (series.buckets[index] ?? 0) + 1;
    }
  }

  get empty(): boolean {
    return this.#series.size === 0;
  }

  /** The metrics since the last collection (delta) or since the start (cumulative). */
  collect(now: bigint): Metric[] {
    const start = this.#temporality === "delta" ? this.#lastCollect : this.#processStart;
    const temporality = this.#temporality === "delta" ? TEMPORALITY.DELTA : TEMPORALITY.CUMULATIVE;
    const metrics: Metric[] = [];
    for (const [name, byName] of this.#series) {
      const [description, unit] = DESCRIPTIONS[name as CounterName];
      const series = [...byName.values()];
      if (name === "toolrt.call.duration") {
        metrics.push({
          name,
          description,
          unit,
          histogram: {
            aggregationTemporality: temporality,
            dataPoints: series.map((s) => ({
              attributes: keyValues(s.attributes),
              startTimeUnixNano: start,
              timeUnixNano: now,
              count: BigInt(s.count),
              sum: s.sum,
              min: s.min,
              max: s.max,
              explicitBounds: BOUNDS,
              bucketCounts: Array.from({ length: BOUNDS.length + 1 }, (_, i) => BigInt(s.buckets[i] ?? 0)),
            })),
          },
        });
      } else {
        metrics.push({
          name,
          description,
          unit,
          sum: {
            aggregationTemporality: temporality,
            isMonotonic: true,
            dataPoints: series.map((s) => ({
              attributes: keyValues(s.attributes),
              startTimeUnixNano: start,
              timeUnixNano: now,
              asInt: BigInt(s.count),
            })),
          },
        });
      }
    }
    this.#lastCollect = now;
    if (this.#temporality === "delta") this.#series.clear();
    return metrics;
  }
}
