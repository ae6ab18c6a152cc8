import type { Principal } from '../auth/principal.ts';
import type { OperationMode } from '../contract/fingerprint.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

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
}
