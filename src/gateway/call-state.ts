import type { Principal } from '../auth/principal.ts';
import type { OperationMode } from '../contract/fingerprint.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

/** What the pipeline knows about one tools/call as it moves through the layers. */
export interface CallState {
  readonly tool: RegisteredTool;
  readonly principal: Principal;
  readonly correlationId: string;
  readonly startedAt: number;
  /** Raw arguments as received (never logged). */
  readonly rawArgs: Record<string, unknown>;
  readonly meta: Record<string, unknown> | undefined;
  /** Arguments after schema validation and defaults. */
  args: Record<string, unknown>;
  mode: OperationMode;
  key: string | null;
}
