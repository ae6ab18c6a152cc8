// What toolgate serves for the billing service: `toolgate serve --config toolgate.config.ts`.
import { createHttpBackend, defineConfig, defineModule } from 'toolgate';
import { resetBillingService } from './tools/billing-reset.ts';
import { getInvoiceTool } from './tools/get-invoice-tool.ts';
import { issueCreditNoteTool } from './tools/issue-credit-note-tool.ts';
import { requestRefundTool } from './tools/request-refund-tool.ts';

const billingUrl = process.env.BILLING_URL ?? 'http://127.0.0.1:4100';

const billing = createHttpBackend({
  baseUrl: billingUrl,
  idempotencyHeader: 'Idempotency-Key',
  // The service stores the first answer per key, so the kit may resend a write whose answer was lost.
  dedupesByKey: true,
  attemptTimeoutMs: 3_000,
});

// For the tests (and a demo): settle unknown outcomes within a second or two instead of minutes, and
// keep asking long enough to outlast a service restart before giving the operation to a human.
const fastReconcile = process.env.BILLING_RECONCILE_FAST === '1';

export default defineConfig({
  modules: [
    defineModule({
      name: 'billing',
      create: () => ({
        tools: [getInvoiceTool(billing), issueCreditNoteTool(billing), requestRefundTool(billing)],
        // Only `toolgate eval` calls it, before every trial: the service back to its seeded invoices.
        reset: () => resetBillingService(billingUrl),
      }),
    }),
  ],
  ...(fastReconcile && {
    operations: {
      reconcileIntervalMs: 100,
      reconcileBackoffMs: 200,
      reconcileBackoffMaxMs: 1_000,
      reconcileMaxAttempts: 60,
      reconcileTimeoutMs: 3_000,
      leaseGraceMs: 2_000,
    },
  }),
});
