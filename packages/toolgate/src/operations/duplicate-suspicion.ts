import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';
import { CONFIRMATION_FIELD } from '../contract/confirmation.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { KeyedCall, PossibleDuplicate } from './keyed-store.ts';
import { possibleDuplicateEnvelope } from './operation-envelopes.ts';
import type { OperationStore } from './operation-store.ts';

/**
 * What a request asks for, apart from how it is delivered: the arguments without the key, the
 * dry-run switch and the confirmation field, so confirming a suspected duplicate does not itself
 * make the request look new. Null for tools that do not watch for duplicates.
 */
export function requestContentHash(
  definition: AnyToolDefinition,
  args: Readonly<Record<string, unknown>>,
): string | null {
  const suspicion = definition.duplicateSuspicion;
  if (!suspicion) return null;
  const content: Record<string, unknown> = { ...args };
  delete content.idempotency_key;
  delete content.dry_run;
  delete content[suspicion.confirmField];
  // The relayed digest of a person's confirmation says nothing about what the request does.
  delete content[CONFIRMATION_FIELD];
  return sha256Hex(
    canonicalJson({ tool: definition.name, contract_major: definition.majorVersion, args: content }),
  );
}

/**
 * DESIGN.md section 4: a new key whose content matches an operation the same principal completed
 * within the window is refused with requires_confirmation / POSSIBLE_DUPLICATE naming the earlier
 * operation, unless the caller set the confirmation field to true. Nothing is reserved or stored. The
 * confirmed call is a new operation and says so with a new key, the one rule for every duplicate check
 * (domains that decide it next to their write store their refusal). Advisory, not a guarantee: two
 * racing keys may both pass.
 */
export async function suspectDuplicate(
  store: OperationStore,
  call: KeyedCall,
  contentHash: string | null,
  now: number,
): Promise<PossibleDuplicate | null> {
  const suspicion = call.tool.definition.duplicateSuspicion;
  if (!suspicion || contentHash === null || call.args[suspicion.confirmField] === true) return null;
  const earlier = await store.findSameContent(
    call.principal.tenant,
    call.principal.subject,
    call.tool.definition.name,
    contentHash,
    call.key,
    now - suspicion.windowSeconds * 1000,
  );
  if (!earlier) return null;
  const envelope: OutcomeEnvelope = possibleDuplicateEnvelope(
    call.tool,
    earlier,
    suspicion.confirmField,
    now,
  );
  return { operationId: earlier.id, createdAt: earlier.createdAt, envelope };
}
