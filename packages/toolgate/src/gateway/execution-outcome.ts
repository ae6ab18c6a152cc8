import type { Logger } from 'pino';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope, POLL_INSTEAD_RESOLUTION, storeUnavailable } from '../contract/envelope-builder.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';
import type { CallState } from './call-state.ts';
import type { Execution } from './execution-layer.ts';
import { outputVerdict } from './output-layer.ts';

/**
 * The output layer applied: turns what the handler did into the envelope. A result that breaks the
 * contract is a visible OUTPUT_CONTRACT_VIOLATION; where an effect may have happened the status is
 * outcome_unknown, never `failed`.
 */
export function envelopeForExecution(
  call: CallState,
  execution: Execution,
  operationId: string | null,
  log: Logger,
): OutcomeEnvelope {
  const { tool } = call;
  const mayHaveEffect = tool.definition.kind !== 'read' && call.mode === 'execute';
  const uncertain = (code: string, message: string) =>
    buildEnvelope(tool, {
      status: mayHaveEffect ? 'outcome_unknown' : 'failed',
      code,
      message,
      resolution: mayHaveEffect ? POLL_INSTEAD_RESOLUTION : null,
      operation_id: operationId,
    });
  switch (execution.kind) {
    case 'timed_out':
    case 'cancelled': {
      const verb =
        execution.kind === 'timed_out'
          ? `did not finish within ${tool.definition.timeoutMs} ms`
          : 'was cancelled';
      log.warn({ corr: call.correlationId, tool: tool.definition.name, op: operationId }, `tool ${verb}`);
      return mayHaveEffect
        ? uncertain('OUTCOME_UNKNOWN', `The operation ${verb}; it may or may not have taken effect.`)
        : uncertain('EXECUTION_TIMEOUT', `The call ${verb}; nothing was changed. It may be retried.`);
    }
    case 'threw': {
      log.error(
        { corr: call.correlationId, tool: tool.definition.name, op: operationId, err: execution.error },
        'tool handler threw',
      );
      if (isStoreUnavailable(execution.error))
        return storeUnavailable(tool, call, mayHaveEffect, operationId);
      return uncertain(
        'INTERNAL_ERROR',
        mayHaveEffect
          ? `An unexpected error occurred (correlation id ${call.correlationId}); the change may or may not have happened.`
          : `An unexpected error occurred (correlation id ${call.correlationId}). Report it; do not retry in a loop.`,
      );
    }
    case 'returned': {
      const verdict = outputVerdict(tool, execution.outcome, call.mode);
      if (!verdict.sound) {
        log.error(
          {
            corr: call.correlationId,
            tool: tool.definition.name,
            op: operationId,
            problems: verdict.problems,
          },
          'output contract violation',
        );
        if (verdict.refusal)
          return buildEnvelope(tool, {
            status: 'failed',
            code: 'OUTPUT_CONTRACT_VIOLATION',
            message: `The tool refused with a status its contract does not give that refusal (correlation id ${call.correlationId}); nothing was changed.`,
            resolution: 'Report it; do not retry in a loop.',
            operation_id: operationId,
          });
        return uncertain(
          'OUTPUT_CONTRACT_VIOLATION',
          `The tool produced a result that breaks its published contract (correlation id ${call.correlationId}).`,
        );
      }
      return buildEnvelope(tool, {
        ...execution.outcome,
        status: verdict.status,
        result: verdict.result,
        operation_id: operationId,
      });
    }
  }
}

/**
 * The answer to a call one of whose layers failed before its handler ran, so nothing was executed:
 * `DEPENDENCY_UNAVAILABLE` when the gateway's database stopped answering, else `INTERNAL_ERROR` with the
 * correlation id. The error itself goes only to the log, under that id.
 */
export function envelopeBeforeExecution(call: CallState, error: unknown, log: Logger): OutcomeEnvelope {
  const { tool } = call;
  log.error({ corr: call.correlationId, tool: tool.definition.name, err: error }, 'pipeline failure');
  if (isStoreUnavailable(error)) return storeUnavailable(tool, call, false);
  return buildEnvelope(tool, {
    status: 'failed',
    code: 'INTERNAL_ERROR',
    message: `An unexpected error occurred before execution (correlation id ${call.correlationId}); nothing was changed.`,
  });
}
