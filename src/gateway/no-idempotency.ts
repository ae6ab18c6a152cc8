import type { IdempotencyLayer } from './idempotency-layer.ts';

/**
 * For gateways that serve only read tools: refuses to admit a write or request, since executing
 * one without a durable reservation could repeat its effect.
 */
export const readOnlyGateway: IdempotencyLayer = {
  async admit(call) {
    throw new Error(`tool ${call.tool.definition.name} needs a durable operation store to execute`);
  },
};
