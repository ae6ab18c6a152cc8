import { requestFingerprint } from '../contract/fingerprint.ts';
import type { KeyedCall } from '../operations/keyed-store.ts';
import type { CallState } from './call-state.ts';

/**
 * The idempotency layer (write/request tools in execute mode only): the call under its key, which the
 * operations store reserves atomically, or replays, joins or refuses (operations/keyed-store.ts).
 *
 * The call as the idempotency layer reserves it under its key: the fingerprint of what it asks for
 * (tool, contract major, mode, validated arguments), so that a changed request under the same key is
 * refused rather than answered with another request's outcome.
 */
export function keyedCall(call: CallState, key: string): KeyedCall {
  const { tool } = call;
  return {
    tool,
    principal: call.principal,
    key,
    fingerprint: requestFingerprint({
      tool: tool.definition.name,
      contractMajor: tool.definition.majorVersion,
      mode: call.mode,
      args: call.args,
      normalize: tool.definition.normalizeForFingerprint,
    }),
    args: call.args,
    correlationId: call.correlationId,
  };
}
