import type { ToolExample } from 'toolgate';
import type { z } from 'zod';
import type { changeCreateInput } from './change-create-tool.ts';

const request = {
  service_id: 'payments-api',
  environment: 'production',
  summary: 'Deploy payment timeout configuration update',
  implementation_plan:
    'Validate current values, apply the approved configuration package, restart one instance at a time, and verify transaction health after each instance.',
  rollback_plan:
    'Rollback if error rate exceeds the approved threshold for five minutes. Restore the previous configuration package and restart affected instances sequentially.',
  // Fixed, so the published contract is stable, and far enough ahead to stay in the future: a Saturday
  // inside payments-api's production window (Saturday 06:00-10:00 UTC).
  start_time: '2099-08-15T02:00:00-05:00',
  duration_minutes: 60,
  risk: 'medium',
  idempotency_key: 'payments-timeout-20990815-v1',
} as const;

/** The two examples of seed 003: validate first, then execute the same request under the same key. */
export const changeCreateExamples: readonly ToolExample<z.input<typeof changeCreateInput>>[] = [
  { title: 'Validate a production change (dry run)', input: { ...request, dry_run: true } },
  {
    title: 'Create the reviewed change with the same idempotency key',
    input: { ...request, dry_run: false },
  },
];
