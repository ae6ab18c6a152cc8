import type { Principal } from '../auth/principal.ts';
import type { OperationMode } from '../contract/fingerprint.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import type { CallAnnotationSet } from '../telemetry/call-annotations.ts';
import type { CallTrace } from '../telemetry/call-tracing.ts';
import type { ConfirmationRecord } from './confirmation-types.ts';

/** What the pipeline knows about one tools/call as it moves through the layers. */
export interface CallState {
  readonly tool: RegisteredTool;
  readonly principal: Principal;
  readonly correlationId: string;
  readonly startedAt: number;
  /** Arguments as received until the input layer validates them, then with defaults applied. */
  args: Record<string, unknown>;
  mode: OperationMode;
  key: string | null;
  /** The call's span (a no-op one when tracing is off). */
  readonly trace: CallTrace;
  /** How a person's confirmation of this call went, when the tool asked for one. */
  confirmation: ConfirmationRecord | null;
  /** The version of the policy set that decided this call, and the policy that denied it; null without one. */
  policy: { readonly version: string; readonly deniedBy: string | null } | null;
  /** The client application: the token's `azp` / `client_id`, else the MCP client's name; null if neither. */
  readonly application: string | null;
  /** The value of the tool's declared environment field, once the input is validated; null before or without one. */
  environment: string | null;
  /** Bounded facts the handler (and its backend clients) told about the call. */
  readonly annotations: CallAnnotationSet;
  /** Its audit entry was written with the operation's settlement, in that transaction. */
  auditedWithOutcome: boolean;
}
