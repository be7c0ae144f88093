/**
 * The exporter behind `Telemetry`: bounded queues of log records and spans, metrics aggregated in
 * memory, sent in batches on timers that never keep a process alive, and flushed at exit within a
 * deadline. Nothing here runs on a tool call's path but building a record and pushing it on a
 * queue; a full queue drops (counted), and a request the collector did not take in time is kept in
 * the spool for a later process instead of being waited for.
 */
import type { ActiveSpan, CallTrace, PolicyDigests, RecordedEvent, SpanContext, Telemetry } from "./api.ts";
import type { BatchSettings, Signal, TelemetryConfig } from "./config.ts";
import { MetricAggregator } from "./metrics.ts";
import { type Attributes, attributesKey, keyValues } from "./otlp/values.ts";
import type { LogRecord, Resource, Span } from "./otlp/types.ts";
import { logRecordOf, type MetricUpdate, metricUpdatesOf } from "./records.ts";
import { baseResource, policyResource, SCOPE } from "./resource.ts";
import { claimSpooled, spoolDir, spoolPayload } from "./spool.ts";
import { nowNanos, startCallTrace, startSpan } from "./trace.ts";
import { encodeRequest, type ExportRequest, type Payload, send } from "./transport.ts";

export interface ExporterOptions {
  config: TelemetryConfig;
  env: Record<string, string | undefined>;
  /** Where undelivered requests wait for a later process; without one they are dropped. */
  stateDir?: string;
  /** Told when records are lost for good, once per flush or timer round, with how many and why. */
  onDropped?: (message: string) => void;
  /** Told of the first delivery problem of the process (the collector is down, refuses, is slow). */
  onProblem?: (message: string) => void;
}

export interface FlushOptions {
  /** Also send requests other processes left in the spool, while the deadline allows. */
  adoptSpool?: boolean;
}

/** Spooled requests sent per timer round, and the wait after a round that failed (doubling). */
const SPOOL_BATCH = 16;
const SPOOL_BACKOFF_MS = [5_000, 300_000] as const;

interface Queued<T> {
  resource: string;
  item: T;
}

export class Exporter {
  readonly #options: ExporterOptions;
  readonly #config: TelemetryConfig;
  readonly #resources = new Map<string, Resource>();
  readonly #base: Attributes;
  #logs: Queued<LogRecord>[] = [];
  #spans: Queued<Span>[] = [];
  readonly #metrics = new Map<string, MetricAggregator>();
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Aborted when a flush's deadline passes: requests still in flight are kept for later. */
  #stop = new AbortController();
  readonly #dropped = new Map<string, number>();
  #problemTold = false;
  #spoolRetryAt = 0;
  #spoolBackoffMs: number = SPOOL_BACKOFF_MS[0];
  #soon: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ExporterOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#base = baseResource(options.config, options.env);
    const every = (ms: number, fn: () => void) => setInterval(fn, ms).unref();
    if (this.#config.targets.logs) every(this.#config.logs.scheduleDelayMs, () => this.#tick("logs"));
    if (this.#config.targets.traces) every(this.#config.traces.scheduleDelayMs, () => this.#tick("traces"));
    if (this.#config.targets.metrics) every(this.#config.metricIntervalMs, () => this.#tick("metrics"));
  }

  /** A Telemetry whose records name this policy in their resource. */
  telemetry(policy?: PolicyDigests): Telemetry {
    return new ExporterTelemetry(this, this.#resourceKey(policy), policy?.digest);
  }

  get includeInput(): boolean {
    return this.#config.includeInput;
  }

  log(resource: string, record: LogRecord): void {
    if (!this.#config.targets.logs) return;
    this.#enqueue(this.#logs, "logs", this.#config.logs, { resource, item: record });
  }

  span(resource: string, span: Span): void {
    if (!this.#config.targets.traces) return;
    this.#enqueue(this.#spans, "traces", this.#config.traces, { resource, item: span });
  }

  count(resource: string, update: MetricUpdate): void {
    if (!this.#config.targets.metrics) return;
    let aggregator = this.#metrics.get(resource);
    if (!aggregator) {
      this.#metrics.set(resource, aggregator = new MetricAggregator(this.#config.temporality, nowNanos()));
    }
    aggregator.add(update);
  }

  async flush(requestedMs: number, options: FlushOptions = {}): Promise<void> {
    clearTimeout(this.#soon);
    // A hand-over (0) stays one; otherwise the configured deadline, if any, replaces the caller's.
    const deadlineMs = requestedMs > 0 ? this.#config.exitDeadlineMs ?? requestedMs : 0;
    const payloads = [
      ...this.#take("logs", Infinity),
      ...this.#take("traces", Infinity),
      ...this.#take("metrics"),
    ];
    if (deadlineMs <= 0) {
      // Hand everything over at once: the caller cannot wait for a collector.
      for (const payload of payloads) this.#keep(payload);
      this.#stop.abort();
    } else {
      const timer = setTimeout(() => this.#stop.abort(), deadlineMs);
      const delivered = await Promise.all([
        ...payloads.map((payload) => this.#deliver(payload)),
        ...[...this.#inFlight].map((p) => p.then(() => true)),
      ]);
      if (options.adoptSpool && delivered.every(Boolean) && !this.#stop.signal.aborted) {
        await this.#sendSpooled(Infinity);
      }
      clearTimeout(timer);
    }
    // The next records (a long-lived process flushes and goes on) get a fresh deadline.
    if (this.#stop.signal.aborted) this.#stop = new AbortController();
    this.#reportDrops();
  }

  #enqueue<T>(queue: Queued<T>[], signal: Signal, settings: BatchSettings, entry: Queued<T>): void {
    if (queue.length >= settings.maxQueueSize) {
      this.#drop(signal, "queue_full", 1);
      return;
    }
    queue.push(entry);
    // A full batch goes out without waiting for the timer.
    if (queue.length >= settings.maxExportBatchSize && this.#soon === undefined) {
      this.#soon = setTimeout(() => {
        this.#soon = undefined;
        this.#tick(signal);
      }, 0);
      this.#soon.unref();
    }
  }

  #tick(signal: Signal): void {
    const batch = signal === "metrics" ? Infinity : this.#config[signal].maxExportBatchSize;
    for (const payload of this.#take(signal, batch)) this.#track(this.#deliver(payload));
    if (signal === "logs" && this.#options.stateDir && Date.now() >= this.#spoolRetryAt) {
      this.#track(this.#sendSpooled(SPOOL_BATCH));
    }
    this.#reportDrops();
  }

  #track(promise: Promise<unknown>): void {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise));
  }

  /** Takes up to `limit` queued items (all metrics) and encodes them, one request per signal. */
  #take(signal: Signal, limit = Infinity): Payload[] {
    const target = this.#config.targets[signal];
    if (!target) return [];
    const protocol = target.kind === "otlp" ? target.protocol : "http/json";
    const request = this.#request(signal, limit);
    return request ? [encodeRequest(signal, protocol, request)] : [];
  }

  #request(signal: Signal, limit: number): ExportRequest | undefined {
    if (signal === "metrics") {
      const now = nowNanos();
      const resourceMetrics = [...this.#metrics].filter(([, a]) => !a.empty).map(([key, aggregator]) => ({
        resource: this.#resources.get(key)!,
        scopeMetrics: [{ scope: SCOPE, metrics: aggregator.collect(now) }],
      }));
      return resourceMetrics.length ? { resourceMetrics } : undefined;
    }
    const queue = signal === "logs" ? this.#logs : this.#spans;
    if (queue.length === 0) return undefined;
    const taken = queue.splice(0, Math.min(limit, queue.length));
    const byResource = new Map<string, unknown[]>();
    for (const { resource, item } of taken) {
      const list = byResource.get(resource) ?? [];
      list.push(item);
      byResource.set(resource, list);
    }
    const groups = [...byResource].map(([key, items]) => ({ resource: this.#resources.get(key)!, items }));
    return signal === "logs"
      ? {
        resourceLogs: groups.map((g) => ({
          resource: g.resource,
          scopeLogs: [{ scope: SCOPE, logRecords: g.items as LogRecord[] }],
        })),
      }
      : {
        resourceSpans: groups.map((g) => ({
          resource: g.resource,
          scopeSpans: [{ scope: SCOPE, spans: g.items as Span[] }],
        })),
      };
  }

  /** Sends one request; a retryable failure keeps it in the spool. True when it was delivered. */
  async #deliver(payload: Payload): Promise<boolean> {
    const target = this.#config.targets[payload.signal]!;
    const result = await send(target, payload, this.#stop.signal);
    if (result.ok) return true;
    this.#problem(result.why);
    if (result.retryable) this.#keep(payload);
    else this.#drop(payload.signal, "rejected", 1);
    return false;
  }

  #keep(payload: Payload): void {
    const dir = this.#options.stateDir && spoolDir(this.#options.stateDir, this.#config.key);
    if (!dir || !spoolPayload(dir, payload)) this.#drop(payload.signal, "undeliverable", 1);
  }

  /** Sends requests left in the spool, oldest first; after a failure, waits longer before the next try. */
  async #sendSpooled(limit: number): Promise<void> {
    if (!this.#options.stateDir) return;
    const dir = spoolDir(this.#options.stateDir, this.#config.key);
    for (let sent = 0; sent < limit && !this.#stop.signal.aborted;) {
      const batch = claimSpooled(dir, Math.min(SPOOL_BATCH, limit - sent));
      if (batch.length === 0) break;
      for (const [i, spooled] of batch.entries()) {
        const target = this.#config.targets[spooled.signal];
        const result = target
          ? await send(target, spooled, this.#stop.signal)
          : { ok: false as const, retryable: false, why: `${spooled.signal} are no longer exported` };
        if (result.ok || !result.retryable) {
          spooled.done();
          if (!result.ok) this.#drop(spooled.signal, "rejected", 1);
          continue;
        }
        for (const rest of batch.slice(i)) rest.release();
        this.#spoolRetryAt = Date.now() + this.#spoolBackoffMs;
        this.#spoolBackoffMs = Math.min(this.#spoolBackoffMs * 2, SPOOL_BACKOFF_MS[1]);
        return;
      }
      sent += batch.length;
    }
    this.#spoolBackoffMs = SPOOL_BACKOFF_MS[0];
  }

  #drop(signal: Signal, reason: string, n: number): void {
    const key = `${signal} ${reason}`;
    this.#dropped.set(key, (this.#dropped.get(key) ?? 0) + n);
    this.count(this.#resourceKey(undefined), {
      kind: "counter",
      name: "toolrt.telemetry.dropped",
      attributes: { "toolrt.telemetry.signal": signal, "toolrt.telemetry.reason": reason },
      by: n,
    });
  }

  #reportDrops(): void {
    if (this.#dropped.size === 0) return;
    const what = [...this.#dropped].map(([key, n]) => `${n} ${key.replace(" ", " (")})`).join(", ");
    this.#dropped.clear();
    this.#options.onDropped?.(`telemetry lost ${what}`);
  }

  #problem(why: string): void {
    if (this.#problemTold) return;
    this.#problemTold = true;
    const kept = this.#options.stateDir
      ? `; undelivered requests are kept in ${spoolDir(this.#options.stateDir, this.#config.key)}`
      : "";
    this.#options.onProblem?.(`telemetry could not be delivered (${why})${kept}`);
  }

  #resourceKey(policy: PolicyDigests | undefined): string {
    const attributes = { ...this.#base, ...policyResource(policy) };
    const key = attributesKey(attributes);
    if (!this.#resources.has(key)) this.#resources.set(key, { attributes: keyValues(attributes) });
    return key;
  }
}

/** The calls toolrt makes: each returns at once, and none throws into a tool call. */
class ExporterTelemetry implements Telemetry {
  constructor(
    private readonly exporter: Exporter,
    private readonly resource: string,
    private readonly policyDigest: string | undefined,
  ) {}

  get includeInput(): boolean {
    return this.exporter.includeInput;
  }

  withPolicy(policy: PolicyDigests | undefined): Telemetry {
    return this.exporter.telemetry(policy);
  }

  record(event: RecordedEvent, span?: SpanContext): void {
    safely(() => {
      const withDigest = event.policyDigest || !this.policyDigest
        ? event
        : { ...event, policyDigest: this.policyDigest };
      const now = nowNanos();
      this.exporter.log(
        this.resource,
        logRecordOf(withDigest, { includeInput: this.includeInput, now, ...(span ? { span } : {}) }),
      );
      for (const update of metricUpdatesOf(withDigest)) this.exporter.count(this.resource, update);
    });
  }

  startSpan(name: string, attributes: Attributes, parent?: SpanContext): ActiveSpan {
    return startSpan(
      (span) => safely(() => this.exporter.span(this.resource, span)),
      name,
      attributes,
      parent,
    );
  }

  startCall(
    call: { tool: string; toolUseId: string; sessionId?: string; invokedBy?: string },
    parent?: SpanContext,
  ): CallTrace {
    return startCallTrace(
      (span) => safely(() => this.exporter.span(this.resource, span)),
      {
        "gen_ai.tool.name": call.tool,
        "gen_ai.tool.call.id": call.toolUseId,
        "session.id": call.sessionId,
        "toolrt.invoked_by": call.invokedBy,
      },
      parent,
    );
  }

  sandboxViolation(kind: string): void {
    safely(() =>
      this.exporter.count(this.resource, {
        kind: "counter",
        name: "toolrt.sandbox.violations",
        attributes: { "toolrt.sandbox.violation": kind },
      })
    );
  }

  flush(deadlineMs: number): Promise<void> {
    return this.exporter.flush(deadlineMs).catch(() => {});
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Telemetry never breaks what it observes.
  }
}
