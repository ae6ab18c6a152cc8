import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics with bounded labels only: tool, contract version, status, code.
 * Never identifiers, keys, addresses or messages.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly calls = new Counter({
    name: 'tool_calls_total',
    help: 'Tool calls by outcome status.',
    labelNames: ['tool', 'contract_version', 'status'] as const,
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'tool_errors_total',
    help: 'Tool calls that answered with an error code, by code.',
    labelNames: ['tool', 'contract_version', 'code'] as const,
    registers: [this.registry],
  });
  readonly replays = new Counter({
    name: 'tool_idempotent_replay_total',
    help: 'Deliveries answered with a stored outcome.',
    labelNames: ['tool', 'contract_version'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'tool_duration_seconds',
    help: 'Tool call duration through the whole pipeline.',
    labelNames: ['tool', 'contract_version', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly resultBytes = new Histogram({
    name: 'tool_result_bytes',
    help: 'Size of the JSON envelope returned to the agent.',
    labelNames: ['tool', 'contract_version'] as const,
    buckets: [256, 1024, 4096, 16384, 65536, 262144],
    registers: [this.registry],
  });

  readonly unauthenticated = new Counter({
    name: 'http_unauthenticated_total',
    help: 'Requests refused with 401 before any tool code ran, by whether a token was present.',
    labelNames: ['token'] as const,
    registers: [this.registry],
  });
  readonly reconciliations = new Counter({
    name: 'operation_reconciliations_total',
    help: 'Reconciliation attempts on operations with unknown outcomes, by what they found.',
    labelNames: ['tool', 'result'] as const,
    registers: [this.registry],
  });
  readonly abandoned = new Counter({
    name: 'operations_abandoned_total',
    help: 'Operations whose executing delivery stopped before recording an outcome (lease expired).',
    labelNames: ['tool'] as const,
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
