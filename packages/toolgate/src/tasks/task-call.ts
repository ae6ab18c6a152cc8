import { type CreateTaskResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import type { Gateway, ToolCallRequest } from '../gateway/gateway.ts';
import type { OperationTasks } from './operation-tasks.ts';

type Settled =
  | { readonly kind: 'reserved'; readonly operationId: string }
  | { readonly kind: 'answered'; readonly envelope: OutcomeEnvelope };

/**
 * A task-augmented tools/call. The call goes through the whole pipeline (identity, scopes, schema, key);
 * the moment its key is reserved it answers CreateTaskResult with the operation id as task id, and the
 * execution goes on in this process. If the process dies, the operation's lease and the reconciler settle
 * it, as for any call. A replay or a join of the same key answers the same task; a refusal before
 * anything ran (no operation) is a JSON-RPC error carrying the envelope, since there is no task to poll.
 */
export async function callToolAsTask(
  gateway: Gateway,
  tasks: OperationTasks,
  request: ToolCallRequest,
  principal: Principal | null,
): Promise<CreateTaskResult> {
  const tool = servedVersion(gateway.registry, request.name, principal);
  if (tool?.definition.kind === 'read') {
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      `${request.name} is a read and cannot be called as a task (execution.taskSupport is "forbidden"); call it without a task.`,
    );
  }
  let reserved: (operationId: string) => void = () => undefined;
  const reservation = new Promise<Settled>((resolve) => {
    reserved = (operationId) => resolve({ kind: 'reserved', operationId });
  });
  // No abort signal: the task outlives the HTTP request that created it.
  const execution = gateway
    .call({ ...request, onReserved: reserved }, principal)
    .then((answer) => answer.envelope);
  const first = await Promise.race([
    reservation,
    execution.then((envelope): Settled => ({ kind: 'answered', envelope })),
  ]);
  if (first.kind === 'reserved') {
    execution.catch((error: unknown) =>
      tasks.logger.error(
        { err: error, op: first.operationId },
        'task execution failed after its task was created',
      ),
    );
    return { task: await tasks.get(principal!, first.operationId) };
  }
  const { envelope } = first;
  // The stored outcome of the same key, or a delivery of it still running: the same operation, the same task.
  const sameOperation =
    envelope.operation_id !== null && (envelope.replayed || envelope.status === 'in_progress');
  if (sameOperation && principal) return { task: await tasks.get(principal, envelope.operation_id!) };
  const why =
    envelope.status === 'validated'
      ? 'a dry run changes nothing and reserves no operation, so it is no task; call it without a task'
      : `${envelope.code ?? envelope.status}: ${envelope.message}`;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, why, envelope);
}
