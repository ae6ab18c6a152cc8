import { canonicalJson, sha256Hex } from './canonical-json.ts';
import { CONFIRMATION_FIELD } from './confirmation.ts';

export type OperationMode = 'execute' | 'dry_run';

export interface FingerprintInput {
  tool: string;
  contractMajor: number;
  mode: OperationMode;
  /** Arguments after schema normalization (defaults applied), without the idempotency key. */
  args: Record<string, unknown>;
  /** The tool's cosmetic normalization of its input (see `normalizeForFingerprint`), applied first. */
  normalize?: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined;
}

/**
 * SHA-256 of the canonical JSON of {tool, contract major, mode, arguments minus key and confirmation},
 * the arguments taken after the tool's cosmetic normalization when it declares one. Key order,
 * whitespace and number spelling never change it, nor does a cosmetic variant the tool normalizes;
 * any semantic change does.
 */
export function requestFingerprint(input: FingerprintInput): string {
  const normalized = input.normalize ? input.normalize(input.args) : input.args;
  // The relayed digest of a person's confirmation is not part of what the request does.
  const { idempotency_key: _key, [CONFIRMATION_FIELD]: _confirmation, ...args } = normalized;
  return sha256Hex(
    canonicalJson({ tool: input.tool, contract_major: input.contractMajor, mode: input.mode, args }),
  );
}
