import { describe, expect, test } from 'vitest';
import { bearerToken } from '../../src/transport/bearer-authenticator.ts';

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';

describe('the token of an Authorization header', () => {
  // Whatever the verifier remembers, the header must still be exactly a Bearer token68.
  for (const known of [true, false]) {
    const remembered = (token: string) => known && token === TOKEN;
    test(`reads the token68 of a Bearer header (token ${known ? 'remembered' : 'new'})`, () => {
      expect(bearerToken(`Bearer ${TOKEN}`, remembered)).toBe(TOKEN);
      expect(bearerToken(`bearer ${TOKEN}`, remembered)).toBe(TOKEN);
      expect(bearerToken(`Bearer   ${TOKEN}  `, remembered)).toBe(TOKEN);
      expect(bearerToken('Bearer abc==', remembered)).toBe('abc==');
    });

    test(`refuses what is not one (token ${known ? 'remembered' : 'new'})`, () => {
      expect(bearerToken(`Basic ${TOKEN}`, remembered)).toBeNull();
      expect(bearerToken(`Bearer ${TOKEN},x`, remembered)).toBeNull();
      expect(bearerToken(`Bearer ${TOKEN} extra`, remembered)).toBeNull();
      expect(bearerToken(`Bearer ${TOKEN}\n`, remembered)).toBeNull();
      expect(bearerToken('Bearer ', remembered)).toBeNull();
      expect(bearerToken(`Bearer${TOKEN}`, remembered)).toBeNull();
      expect(bearerToken(`Bearer a=b`, remembered)).toBeNull();
    });
  }

  test('asks the verifier only about the token of the plain spelling', () => {
    const asked: string[] = [];
    bearerToken(`Bearer ${TOKEN}`, (token) => {
      asked.push(token);
      return false;
    });
    bearerToken(`Bearer  ${TOKEN}`, (token) => {
      asked.push(token);
      return false;
    });
    expect(asked).toEqual([TOKEN]);
  });
});
