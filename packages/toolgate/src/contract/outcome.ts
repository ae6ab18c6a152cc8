import type { FieldError, Warning } from './envelope.ts';

/**
 * What a tool handler returns. Domain outcomes (rejections, confirmations, unknown outcomes)
 * are values, not exceptions; the gateway turns them into the envelope, filling category and
 * retryable from the tool's declared error codes.
 */
export type ToolOutcome<R> =
  | {
      status: 'completed' | 'validated' | 'submitted';
      result: R;
      message?: string;
      /** The next step, where success still leaves one (poll later, report as requested). */
      resolution?: string | null;
      warnings?: Warning[];
    }
  | {
      status: 'requires_confirmation' | 'rejected' | 'outcome_unknown' | 'failed';
      code: string;
      message: string;
      resolution?: string | null;
      field_errors?: FieldError[];
      result?: R | null;
      warnings?: Warning[];
    };

interface Extras {
  message?: string;
  resolution?: string | null;
  warnings?: Warning[];
}
interface RefusalExtras<R> {
  resolution?: string | null;
  field_errors?: FieldError[];
  result?: R | null;
  warnings?: Warning[];
}

/** Constructors that keep handlers short and their outcomes well-formed. */
export const outcome = {
  completed<R>(result: R, extras: Extras = {}): ToolOutcome<R> {
    return { status: 'completed', result, ...extras };
  },
  validated<R>(result: R, extras: Extras = {}): ToolOutcome<R> {
    return { status: 'validated', result, ...extras };
  },
  submitted<R>(result: R, extras: Extras = {}): ToolOutcome<R> {
    return { status: 'submitted', result, ...extras };
  },
  rejected<R = never>(code: string, message: string, extras: RefusalExtras<R> = {}): ToolOutcome<R> {
    return { status: 'rejected', code, message, ...extras };
  },
  requiresConfirmation<R = never>(
    code: string,
    message: string,
    extras: RefusalExtras<R> = {},
  ): ToolOutcome<R> {
    return { status: 'requires_confirmation', code, message, ...extras };
  },
  unknown<R = never>(code: string, message: string, extras: RefusalExtras<R> = {}): ToolOutcome<R> {
    return { status: 'outcome_unknown', code, message, ...extras };
  },
  /** Only for failures that provably changed nothing (e.g. a dependency refused before any effect). */
  failed<R = never>(code: string, message: string, extras: RefusalExtras<R> = {}): ToolOutcome<R> {
    return { status: 'failed', code, message, ...extras };
  },
};
