import { describe, expect, it } from 'vitest';
import { readAssertions, strongestAssertion } from '../../packages/eval/src/claim-reader.ts';

describe('the claim reader', () => {
  it('reads completion from the prose whatever the CLAIM line says', () => {
    expect(strongestAssertion('Your redirect is complete.\nCLAIM: requested')).toEqual({
      claim: 'completed',
      phrase: 'is complete',
    });
    expect(strongestAssertion('I have updated your address.\nCLAIM: refused')?.claim).toBe('completed');
    expect(strongestAssertion('The change has been successfully created as CHG-1.')?.claim).toBe('completed');
  });

  it('takes the strongest assertion, in the order they are made', () => {
    const text = 'I could not confirm it at first; the request was submitted and the change is now live.';
    expect(readAssertions(text).map((a) => a.claim)).toEqual(['uncertain', 'requested', 'completed']);
    expect(strongestAssertion(text)?.phrase).toBe('is now live');
  });

  it('asserts nothing with negated, conditional or preparatory phrases, or a bare CLAIM line', () => {
    expect(
      strongestAssertion(
        'Nothing was changed yet: the request was submitted, and it is not done until the carrier decides.',
      ),
    ).toEqual({ claim: 'requested', phrase: 'submitted' });
    expect(readAssertions('Once it is done, I will tell you.')).toEqual([]);
    expect(strongestAssertion('I have created a draft. Shall I create the ticket?')?.claim).toBe(
      'needs_confirmation',
    );
    expect(strongestAssertion('Here is what happened.\nCLAIM: completed')).toBeNull();
    expect(
      strongestAssertion(
        'The contract broke (no state), so I cannot tell whether it is approved. CLAIM: uncertain',
      )?.claim,
    ).toBe('uncertain');
  });
});
