import type { ConfirmationAsk, ConfirmationView } from 'toolgate';
import type { SuggestedCorrection } from './address-change-service.ts';
import type { PostalAddress } from './postal-address.ts';
import { postalAddressViewSchema } from './postal-address.ts';

/** The contract's words for when the customer confirms an address change. */
export const CORRECTION_CONFIRM_WHEN =
  'address changes for which validation suggests a material correction (another street or postal code): the customer chooses the suggested address or their own';

/** The two answers the customer may give: the address validation suggests, or the one they sent. */
export const SUGGESTED = 'suggested';
export const ORIGINAL = 'original';

/** An address on one line, as the customer reads it back. */
export function addressLine(address: PostalAddress): string {
  return [
    address.recipient_name,
    address.address_line_1,
    address.address_line_2,
    address.locality,
    address.administrative_area,
    address.postal_code,
    address.country_code,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
}

/**
 * The customer's question for a material correction: which of the two addresses the order goes to,
 * each spelled out. The suggestion is bound into the confirmation (facts), so the handler applies
 * exactly the address the customer read.
 */
export function correctionQuestion(correction: SuggestedCorrection, sent: PostalAddress): ConfirmationAsk {
  const fields = correction.fields.join(' and ').replaceAll('_', ' ');
  return {
    message: `Address validation suggests a different ${fields} for the delivery address of order ${correction.orderId}. Which address should the order go to?`,
    details: {
      order: correction.orderId,
      suggested: addressLine(correction.suggested),
      sent: addressLine(sent),
      corrected: correction.fields.join(', '),
    },
    choice: {
      title: 'Deliver to',
      options: [
        { value: SUGGESTED, title: `The suggested address: ${addressLine(correction.suggested)}` },
        { value: ORIGINAL, title: `The address as given: ${addressLine(sent)}` },
      ],
    },
    facts: { suggested_address: correction.suggested, corrected_fields: correction.fields },
  };
}

/**
 * The address the customer chose, when they were asked: the confirmed suggestion or the one they
 * sent. Null when nothing was asked (validation then decides, as for any change).
 */
export function chosenAddress(
  confirmation: ConfirmationView | null,
  sent: PostalAddress,
): PostalAddress | null {
  if (!confirmation) return null;
  if (confirmation.choice === ORIGINAL) return sent;
  if (confirmation.choice === SUGGESTED)
    return postalAddressViewSchema.parse(confirmation.facts.suggested_address);
  throw new Error(`an address correction was confirmed with no known choice (${confirmation.choice})`);
}
