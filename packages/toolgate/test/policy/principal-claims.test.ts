import { describe, expect, test } from 'vitest';
import { principalFromClaims } from '../../src/auth/token-claims.ts';

const base = { sub: 'eng.a', tenant: 'acme', actor: 'support_agent', scope: 'changes:create' };

describe('the claims policies read', () => {
  test('groups come as an array or a space-separated string, sorted and without repeats', () => {
    expect(principalFromClaims({ ...base, groups: ['team-b', 'team-a', 'team-b'] })).toMatchObject({
      ok: true,
      principal: { groups: ['team-a', 'team-b'] },
    });
    expect(principalFromClaims({ ...base, groups: ' team-b  team-a ' })).toMatchObject({
      ok: true,
      principal: { groups: ['team-a', 'team-b'] },
    });
    expect(principalFromClaims(base)).toMatchObject({ ok: true, principal: { groups: [] } });
  });

  test('a group with a control character makes the token unusable', () => {
    expect(principalFromClaims({ ...base, groups: ['team\u0000a'] })).toMatchObject({ ok: false });
    expect(principalFromClaims({ ...base, groups: 'team-a\nteam-b' })).toMatchObject({ ok: false });
  });

  test('the application is the authorized party, else the client id', () => {
    const both = principalFromClaims({ ...base, azp: 'support-console', client_id: 'other' });
    expect(both).toMatchObject({ ok: true, principal: { application: 'support-console' } });
    const client = principalFromClaims({ ...base, client_id: 'change-bot' });
    expect(client).toMatchObject({ ok: true, principal: { application: 'change-bot' } });
    const none = principalFromClaims(base);
    expect(none.ok && 'application' in none.principal).toBe(false);
  });
});
