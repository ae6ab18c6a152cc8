import type { Principal } from '../auth/principal.ts';
import type { OperationMode } from '../contract/fingerprint.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import type { CallAnnotationSet } from '../telemetry/call-annotations.ts';
import type { CallTrace } from '../telemetry/call-tracing.ts';
import type { ConfirmationRecord } from './confirmation-types.ts';

/** The version of the policy set that decided a call, and the policy that denied it. */
export interface PolicyFacts {
  readonly version: string;
  readonly deniedBy: string | null;
}

/**
 * What the pipeline knows about one tools/call, as the last step that decided something left it:
 * each such step (input, policy, confirmation, settlement) answers a new copy with its own facts, so a
 * fact is written once, by the step that decides it.
 */
export interface CallState {
  readonly tool: RegisteredTool;
  readonly principal: Principal;
  readonly correlationId: string;
  readonly startedAt: number;
  /** Arguments as received until the input layer validates them, then with defaults applied. */
  readonly args: Record<string, unknown>;
  readonly mode: OperationMode;
  readonly key: string | null;
  /** The call's span (a no-op one when tracing is off). */
  readonly trace: CallTrace;
  /** How a person's confirmation of this call went, when the tool asked for one. */
  readonly confirmation: ConfirmationRecord | null;
  /** The version of the policy set that decided this call, and the policy that denied it; null without one. */
  readonly policy: PolicyFacts | null;
  /** The client application: the token's `azp` / `client_id`, else the MCP client's name; null if neither. */
  readonly application: string | null;
  /** The value of the tool's declared environment field, once the input is validated; null before or without one. */
  readonly environment: string | null;
  /** Bounded facts the handler (and its backend clients) told about the call. */
  readonly annotations: CallAnnotationSet;
  /** Its audit entry was written with the operation's settlement, in that transaction. */
  readonly auditedWithOutcome: boolean;
}
