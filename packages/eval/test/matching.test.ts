import { describe, expect, it } from 'vitest';
import { parseClaim } from '../src/claim.ts';
import { renderTemplates, TemplateError } from '../src/template.ts';
import { matches, mismatches, pathMismatches } from '../src/value-matcher.ts';

const scope = {
  values: {
    fixtures: { orders: { pending: [{ id: 'ord_1', version: 3 }] } },
    steps: { read: { result: { version: 7 } } },
  },
  key: (name: string) => `key-${name}-0123456789`,
  now: () => Date.parse('2030-01-01T00:00:00Z'),
};

describe('templates', () => {
  it('keeps the type of a whole-string template and interpolates inside longer strings', () => {
    expect(
      renderTemplates(
        {
          id: '{{fixtures.orders.pending[0].id}}',
          version: '{{ steps.read.result.version }}',
          note: 'order {{fixtures.orders.pending[0].id}} v{{steps.read.result.version}}',
          key: '{{keys.change}}',
          at: '{{now_plus_hours(48)}}',
        },
        scope,
      ),
    ).toEqual({
      id: 'ord_1',
      version: 7,
      note: 'order ord_1 v7',
      key: 'key-change-0123456789',
      at: '2030-01-03T00:00:00Z',
    });
  });

  it('throws on a path that leads nowhere, naming it', () => {
    expect(() => renderTemplates('{{fixtures.orders.shipped[0].id}}', scope)).toThrow(TemplateError);
    expect(() => renderTemplates('{{fixtures.orders.shipped[0].id}}', scope)).toThrow(
      /fixtures.orders.shipped/,
    );
  });
});

describe('value matchers', () => {
  it('matches literals, nested objects partially and arrays exactly', () => {
    expect(matches({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x', d: 2 }, e: 3 })).toBe(true);
    expect(mismatches({ a: 1 }, { a: 2 })).toEqual(['a: expected 1, got 2']);
    expect(matches([1, 2], [1, 2, 3])).toBe(false);
  });

  it('has one-of, pattern, contains, any, absent, bounds and not', () => {
    expect(matches({ env: { $one_of: ['test', 'staging'] } }, { env: 'staging' })).toBe(true);
    expect(matches({ id: { $pattern: '^ord_[0-9a-f]+$' } }, { id: 'ord_12ab' })).toBe(true);
    expect(matches({ m: { $contains: 'REDIRECT' } }, { m: 'use shipments redirect' })).toBe(true);
    expect(matches({ line2: { $any: true } }, {})).toBe(false);
    expect(matches({ line2: { $absent: true } }, {})).toBe(true);
    expect(matches({ line2: { $absent: true } }, { line2: null })).toBe(false);
    expect(matches({ n: { $gte: 2 } }, { n: 2 })).toBe(true);
    expect(matches({ n: { $lte: 1 } }, { n: 2 })).toBe(false);
    expect(matches({ s: { $not: 'completed' } }, { s: 'rejected' })).toBe(true);
  });

  it('matches dotted paths into a value', () => {
    expect(
      pathMismatches(
        { 'result.items[0].id': 'x', status: 'completed' },
        { status: 'completed', result: { items: [{ id: 'x' }] } },
      ),
    ).toEqual([]);
  });
});

describe('claim line', () => {
  it('reads the last CLAIM line and ignores free wording', () => {
    expect(parseClaim('Done!\nCLAIM: completed')).toBe('completed');
    expect(parseClaim('**CLAIM:** requested')).toBe('requested');
    expect(parseClaim('CLAIM: completed\nActually not.\nCLAIM: uncertain')).toBe('uncertain');
    expect(parseClaim('I have completed the change.')).toBeNull();
    expect(parseClaim('CLAIM: needs confirmation')).toBe('needs_confirmation');
  });
});

describe('template selectors', () => {
  it('picks an array element by a field value', () => {
    const values = {
      fixtures: {
        all: [
          { label: 'a', id: 1 },
          { label: 'b-2', id: 2 },
        ],
      },
    };
    expect(renderTemplates('{{fixtures.all[label=b-2].id}}', { ...scope, values })).toBe(2);
    expect(() => renderTemplates('{{fixtures.all[label=c].id}}', { ...scope, values })).toThrow(
      TemplateError,
    );
  });
});
