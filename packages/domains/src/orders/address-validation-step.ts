import type { Warning } from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import type { PostalAddress } from './postal-address.ts';
import type { AddressValidationService } from './systems/address-validation/address-validation-service.ts';
import type { AddressField } from './systems/postal-address.ts';

/** Validation is a lookup; a validator slower than this is treated as unavailable. */
const VALIDATION_WAIT_MS = 2_000;

/**
 * The validated address to use, or the outcome that ends the call (nothing changed in either case). A
 * material correction also says what validation suggests, for a tool that puts it to the customer.
 */
export type ValidationStep<R> =
  | { kind: 'use'; address: PostalAddress; warnings: Warning[] }
  | { kind: 'stop'; outcome: ToolOutcome<R> }
  /** Validation did not answer: nobody can tell yet what the address needs. */
  | { kind: 'unavailable'; outcome: ToolOutcome<never> }
  | { kind: 'correction'; suggested: PostalAddress; fields: AddressField[]; outcome: ToolOutcome<R> };

/**
 * Runs address validation for a change or a redirect. Cosmetic fixes are kept and listed as warnings;
 * a material correction stops with requires_confirmation and the suggestion; an undeliverable
 * address stops with a rejection; a validator that does not answer stops with DEPENDENCY_UNAVAILABLE,
 * which is safe because validation changes nothing.
 */
export async function validateNewAddress<R>(
  validator: AddressValidationService,
  address: PostalAddress,
  signal: AbortSignal,
  suggestion: (suggested: PostalAddress, fields: AddressField[]) => R,
): Promise<ValidationStep<R>> {
  let verdict: Awaited<ReturnType<AddressValidationService['validate']>>;
  try {
    verdict = await validator.validate(
      address,
      AbortSignal.any([signal, AbortSignal.timeout(VALIDATION_WAIT_MS)]),
    );
  } catch {
    return {
      kind: 'unavailable',
      outcome: outcome.failed(
        'DEPENDENCY_UNAVAILABLE',
        'Address validation did not answer; nothing was changed.',
        {
          resolution: 'Try again in a moment with the same idempotency_key.',
        },
      ),
    };
  }
  switch (verdict.kind) {
    case 'undeliverable':
      return {
        kind: 'stop',
        outcome: outcome.rejected(
          'ADDRESS_UNDELIVERABLE',
          `The address cannot be delivered to: ${verdict.reason}.`,
          {
            resolution: 'Ask the customer to check the address or give another one.',
          },
        ),
      };
    case 'correction':
      return {
        kind: 'correction',
        suggested: verdict.suggested,
        fields: verdict.correctedFields,
        outcome: outcome.requiresConfirmation(
          'ADDRESS_CORRECTION_SUGGESTED',
          `Address validation suggests a different ${verdict.correctedFields.join(' and ').replaceAll('_', ' ')}; nothing was changed.`,
          {
            resolution:
              'Show suggested_address to the customer. If they accept it, call again with suggested_address as new_address and a new idempotency_key; otherwise ask for the correct address.',
            result: suggestion(verdict.suggested, verdict.correctedFields),
          },
        ),
      };
    case 'valid':
      return {
        kind: 'use',
        address: verdict.address,
        warnings: verdict.normalizations.map((n) => ({
          code: 'ADDRESS_NORMALIZED',
          message: `${n.field}: ${n.detail}.`,
        })),
      };
  }
}
