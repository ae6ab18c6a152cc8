import { POLL_INSTEAD_RESOLUTION } from '../contract/envelope-builder.ts';
import { outcome, type ToolOutcome } from '../contract/outcome.ts';
import type { BackendResult } from './backend-failure.ts';

/** Where the detail the agent must not see goes (reason, status, schema problems); a pino logger fits. */
export interface BackendLog {
  warn(details: object, message: string): void;
}

export interface BackendOutcomeOptions {
  /** How the agent should hear the service named, e.g. `the warehouse`; default `the service`. */
  readonly system?: string;
  /** Quoted in INTERNAL_ERROR messages so a report can be matched to the log. */
  readonly correlationId?: string;
  /** Receives the detail of every failure; without it the detail is lost. */
  readonly log?: BackendLog;
}

const RETRY_LATER_RESOLUTION =
  'Nothing was changed: it is safe to retry later (for a change, with the same idempotency_key).';
const REPORT_RESOLUTION = 'Report it; do not retry in a loop.';

function sentence(system: string): string {
  return system.charAt(0).toUpperCase() + system.slice(1);
}

/**
 * Turns a backend result into the tool's outcome, keeping the gateway's rules: `failed` only where
 * nothing was applied (`unavailable`, an unexpected refusal, a read's broken answer); `outcome_unknown`
 * wherever an effect may have happened. Messages are one relayable sentence: no URL, body or stack.
 * The codes used besides the mapped rejections are the gateway's own, which every tool may answer; the
 * detail behind a failure goes to `options.log`.
 */
export function backendOutcome<T, R>(
  result: BackendResult<T>,
  onOk: (body: T, status: number) => ToolOutcome<R>,
  options: BackendOutcomeOptions = {},
): ToolOutcome<R> {
  const system = options.system ?? 'the service';
  const reference = options.correlationId ? ` (correlation id ${options.correlationId})` : '';
  if (result.kind !== 'ok' && result.kind !== 'rejected') {
    // ctx.log is a child already bound to the call's corr: a second `corr` key would repeat it.
    const corr = carriesCorr(options.log) ? {} : { corr: options.correlationId };
    options.log?.warn({ ...corr, system, ...result }, `backend call ended ${result.kind}`);
  }
  switch (result.kind) {
    case 'ok':
      return onOk(result.body, result.status);
    case 'rejected': {
      const extras = { resolution: result.resolution };
      return result.outcomeStatus === 'requires_confirmation'
        ? outcome.requiresConfirmation(result.code, result.message, extras)
        : outcome.rejected(result.code, result.message, extras);
    }
    case 'unavailable':
      return outcome.failed(
        'DEPENDENCY_UNAVAILABLE',
        `${sentence(system)} could not be reached; nothing was changed.`,
        {
          resolution: RETRY_LATER_RESOLUTION,
        },
      );
    case 'unknown':
      return outcome.unknown(
        'OUTCOME_UNKNOWN',
        `${sentence(system)} did not confirm the change; it may or may not have taken effect.`,
        { resolution: POLL_INSTEAD_RESOLUTION },
      );
    case 'contract_violation':
      return result.mayHaveApplied
        ? outcome.unknown(
            'OUTPUT_CONTRACT_VIOLATION',
            `${sentence(system)} answered in an unexpected form${reference}; the change may or may not have happened.`,
            { resolution: POLL_INSTEAD_RESOLUTION },
          )
        : outcome.failed(
            'OUTPUT_CONTRACT_VIOLATION',
            `${sentence(system)} answered in an unexpected form${reference}; nothing was changed.`,
            { resolution: REPORT_RESOLUTION },
          );
    case 'unexpected_status':
      return outcome.failed(
        'INTERNAL_ERROR',
        `${sentence(system)} refused the request in a way this tool does not handle${reference}; nothing was changed.`,
        { resolution: REPORT_RESOLUTION },
      );
  }
}

/** True for a pino child logger whose bindings already hold `corr`. */
function carriesCorr(log: BackendLog | undefined): boolean {
  const bindings = (log as { bindings?: () => Record<string, unknown> } | undefined)?.bindings;
  return typeof bindings === 'function' && bindings.call(log).corr !== undefined;
}
