import { defineModule } from 'toolgate';
import { refundOverLimit } from './tools/refund-over-limit.ts';
import { refundsIssueTool } from './tools/refunds-issue-tool.ts';

/** The refunds team's module: one tool, its table, and the exception kind its finance approvers grant. */
export const refundsModule = defineModule({
  name: 'refunds',
  migrations: [
    {
      id: 'refunds_0001_issued',
      sql: `CREATE TABLE refunds_issued (
        refund_id TEXT PRIMARY KEY,
        operation_id TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL,
        customer_id TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        exception_id TEXT
      )`,
    },
  ],
  create: ({ db }) => ({ tools: [refundsIssueTool(db)], exceptions: [refundOverLimit] }),
});
