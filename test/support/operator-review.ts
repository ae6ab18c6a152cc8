import type { App } from 'toolgate/server';
import {
  type ResolveAnswer,
  resolveDepsOf,
  resolveOperation,
} from '../../packages/toolgate/src/operator/resolve-operation.ts';

/**
 * An operator of the operation's own tenant resolves it, as POST /operator/v1/operations/{id}/resolve
 * does: the decision is recorded under the operator's subject and the tool's onReviewResolved hook runs.
 */
export async function resolveAsOperator(
  app: App,
  operationId: string,
  outcome: 'completed' | 'rejected',
  note: string,
  reference?: string,
): Promise<ResolveAnswer> {
  const record = await app.operations.store.findById(operationId);
  if (!record) throw new Error(`no operation ${operationId}`);
  const operator = {
    subject: 'olivia',
    tenant: record.tenant,
    actor: 'operator' as const,
    scopes: new Set(['operations:review']),
  };
  return resolveOperation(resolveDepsOf(app), operator, operationId, {
    outcome,
    note,
    ...(reference ? { reference } : {}),
  });
}
