import { defineException, ExceptionDefinitionError } from 'toolgate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approverScopesOf } from '../../src/contract/approver-scopes.ts';
import { confirmSpecProblems } from '../../src/contract/confirmation.ts';

const spec = {
  kind: 'refund_over_limit',
  title: 'Refund above the limit',
  description: 'Lets refunds of one customer exceed the limit for a day.',
  target: z.strictObject({ customer_id: z.string().max(40) }),
  grantScope: 'refunds:approve',
};

describe('defineException', () => {
  it('keeps the declaration, with the default span and the target as JSON Schema', () => {
    const defined = defineException(spec);
    expect(defined).toMatchObject({ kind: 'refund_over_limit', grantScope: 'refunds:approve' });
    expect(defined.maxDurationSeconds).toBe(72 * 3600);
    expect(defined.targetJsonSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['customer_id'],
    });
    expect(Object.isFrozen(defined)).toBe(true);
  });

  it('names every broken rule at once', () => {
    const attempt = () =>
      defineException({
        ...spec,
        kind: 'Refund Over',
        grantScope: 'operations:confirm',
        maxDurationSeconds: 10,
        target: z.object({
          reason: z.string(),
          nested: z.strictObject({ a: z.string() }),
          maybe: z.string().optional(),
        }),
      });
    expect(attempt).toThrow(ExceptionDefinitionError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    for (const part of [
      'kind must be snake_case',
      'grantScope must be a scope of the module',
      'maxDurationSeconds must be an integer',
      'target must be closed',
      'target field reason is a field of the exception record',
      'target field nested must be a string, number, boolean or enum',
      'target fields must all be required',
    ]) {
      expect(message).toContain(part);
    }
  });
});

describe('approver scopes a module declares', () => {
  it('are listed with what each gates, and the framework keeps only its own operations:* scopes', () => {
    const refund = defineException(spec);
    const listed = approverScopesOf([refund], [
      { name: 'payouts_send', confirm: { approverScope: 'payouts:approve' }, reviewScope: 'payouts:review' },
    ] as never);
    expect(listed).toEqual([
      { scope: 'payouts:approve', gates: [{ gates: 'confirmation', tool: 'payouts_send' }] },
      { scope: 'payouts:review', gates: [{ gates: 'review', tool: 'payouts_send' }] },
      { scope: 'refunds:approve', gates: [{ gates: 'exception', kind: 'refund_over_limit' }] },
    ]);
  });

  it('a confirmation approver scope needs the operator fallback and a module scope', () => {
    const ask = async () => null;
    expect(
      confirmSpecProblems({ when: 'always', fallback: 'refuse', approverScope: 'payouts:approve', ask }, []),
    ).toEqual(['confirm.approverScope needs fallback operator']);
    expect(
      confirmSpecProblems(
        { when: 'always', fallback: 'operator', approverScope: 'operations:review', ask },
        [],
      ),
    ).toEqual([
      'confirm.approverScope operations:review must be a scope of the module such as payouts:approve',
    ]);
    expect(
      confirmSpecProblems(
        { when: 'always', fallback: 'operator', approverScope: 'payouts:approve', ask },
        [],
      ),
    ).toEqual([]);
  });
});
