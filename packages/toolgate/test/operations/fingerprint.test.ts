import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/contract/canonical-json.ts';
import { type FingerprintInput, requestFingerprint } from '../../src/contract/fingerprint.ts';
import { newOperationId, OPERATION_ID_PATTERN } from '../../src/operations/operation-id.ts';

const base: FingerprintInput = {
  tool: 'orders_change_unshipped_address',
  contractMajor: 1,
  mode: 'execute',
  args: {
    order_id: 'ord_0123456789abcdef0123456789abcdef',
    expected_version: 3,
    address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    tags: ['a', 'b'],
    idempotency_key: 'key-aaaaaaaaaaaaaaaa',
  },
};

const fp = (over: Partial<FingerprintInput> = {}, args?: Record<string, unknown>) =>
  requestFingerprint({ ...base, ...over, args: args ?? base.args });

describe('request fingerprint', () => {
  it('is a SHA-256 hex digest', () => {
    expect(fp()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores key order at every depth, whitespace and number spelling', () => {
    const reordered = JSON.parse(`{
      "tags": ["a", "b"],
      "address": {"country": "US", "postal_code": "12345", "city": "Springfield", "line1": "1 Main St"},
      "idempotency_key": "key-aaaaaaaaaaaaaaaa",
      "expected_version": 3.0,
      "order_id": "ord_0123456789abcdef0123456789abcdef"
    }`);
    expect(fp({}, reordered)).toBe(fp());
    expect(fp({}, { ...base.args, expected_version: 3 })).toBe(fp());
  });

  it('ignores the idempotency key itself', () => {
    expect(fp({}, { ...base.args, idempotency_key: 'another-key-bbbbbbbb' })).toBe(fp());
  });

  it('changes with any semantic change', () => {
    const variants: Record<string, unknown>[] = [
      { ...base.args, expected_version: 4 },
      { ...base.args, order_id: 'ord_0123456789abcdef0123456789abcdee' },
      { ...base.args, address: { ...(base.args.address as object), city: 'Shelbyville' } },
      { ...base.args, tags: ['b', 'a'] },
      { ...base.args, tags: ['a', 'b', 'c'] },
      { ...base.args, note: null },
      { ...base.args, expected_version: '3' },
    ];
    const prints = new Set([fp(), ...variants.map((args) => fp({}, args))]);
    expect(prints.size).toBe(variants.length + 1);
    expect(fp({ mode: 'dry_run' })).not.toBe(fp());
    expect(fp({ contractMajor: 2 })).not.toBe(fp());
    expect(fp({ tool: 'orders_get' })).not.toBe(fp());
  });

  it("is taken after the tool's cosmetic normalization, which still tells material differences apart", () => {
    const address = base.args.address as Record<string, string>;
    const spelledOut = (args: Record<string, unknown>) => {
      const given = args.address as Record<string, string>;
      return { ...args, address: { ...given, line1: given.line1!.replace(/ St$/, ' Street') } };
    };
    const withLine = (line1: string) => ({ ...base.args, address: { ...address, line1 } });
    const normalized = (line1: string) => fp({ normalize: spelledOut }, withLine(line1));
    expect(normalized('1 Main St')).toBe(normalized('1 Main Street'));
    expect(normalized('2 Main St')).not.toBe(normalized('1 Main Street'));
    // Without the tool's normalization the two spellings stay two requests.
    expect(fp({}, withLine('1 Main St'))).not.toBe(fp({}, withLine('1 Main Street')));
  });

  it('is computed over RFC 8785 canonical JSON', () => {
    expect(canonicalJson({ b: [1.0, 'x'], a: { d: true, c: null } })).toBe(
      '{"a":{"c":null,"d":true},"b":[1,"x"]}',
    );
  });

  it('is the same JSON value, members sorted by UTF-16 code units at every level, whatever the insertion order', () => {
    // The straightforward serialization, members sorted with an explicit code-unit comparison.
    const expected = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(expected).join(',')}]`
        : typeof v === 'object' && v !== null
          ? `{${Object.keys(v)
              .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
              .map((k) => `${JSON.stringify(k)}:${expected((v as Record<string, unknown>)[k])}`)
              .join(',')}}`
          : JSON.stringify(v);
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(text).toBe(expected(value));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversed(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('operation ids', () => {
  it('are op_ + 26 Crockford base32 characters that sort by creation time', () => {
    const early = newOperationId(Date.UTC(2030, 0, 1));
    const later = newOperationId(Date.UTC(2030, 0, 1) + 1);
    expect(early).toMatch(OPERATION_ID_PATTERN);
    expect(early < later).toBe(true);
    const many = new Set(Array.from({ length: 1000 }, () => newOperationId(Date.now())));
    expect(many.size).toBe(1000);
  });
});
