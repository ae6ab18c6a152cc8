import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import { loadPolicyEngine } from '../../src/policy/load-policy-engine.ts';
import type { PolicyEngine } from '../../src/policy/policy-engine.ts';
import { principalEntity, principalId } from '../../src/policy/policy-engine.ts';

const SCHEMA = `entity Group;
entity Principal in [Group] { subject: String, tenant: String, actor: String, scopes: Set<String>, groups: Set<String> };
entity Tool { tenant: String };
action "notes_delete" appliesTo { principal: Principal, resource: Tool, context: {} };
`;
/** A permit for one person of one tenant, written the way the docs write it. */
const POLICY = `@id("alice-of-acme-x")
permit (principal == Principal::"acme%2Fx/alice", action == Action::"notes_delete", resource);
@id("bob-of-acme")
permit (principal == Principal::"acme/bob", action == Action::"notes_delete", resource);
`;

const who = (tenant: string, subject: string): Principal => ({
  tenant,
  subject,
  actor: 'support_agent',
  scopes: new Set(['notes:write']),
  groups: [],
});

describe("the Cedar principal's id: no pair of claims can pass for another", () => {
  let dir: string;
  let engine: PolicyEngine;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-principal-'));
    writeFileSync(join(dir, 'notes.cedarschema'), SCHEMA);
    writeFileSync(join(dir, 'notes.cedar'), POLICY);
    engine = loadPolicyEngine(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const decide = (principal: Principal) =>
    engine.decide({
      principal,
      action: 'notes_delete',
      resource: { type: 'Tool', id: 'notes_delete', attributes: { tenant: principal.tenant } },
      input: {},
      facts: {},
    });

  it('escapes the separator inside tenant and subject, so the two halves stay apart', () => {
    expect(principalEntity(who('acme', 'bob')).uid).toEqual({ type: 'Principal', id: 'acme/bob' });
    expect(principalId(who('acme/x', 'y'))).toBe('acme%2Fx/y');
    expect(principalId(who('acme', 'x/y'))).toBe('acme/x%2Fy');
    // The escape character itself is escaped, or `acme%2Fx` written as a tenant would pass for `acme/x`.
    expect(principalId(who('acme%2Fx', 'y'))).toBe('acme%252Fx/y');
  });

  it('a permit for one tenant and subject matches that pair only', () => {
    expect(decide(who('acme/x', 'alice')).allowed).toBe(true);
    // The same characters split the other way, and the escape written out by hand, are other people.
    expect(decide(who('acme', 'x/alice')).allowed).toBe(false);
    expect(decide(who('acme%2Fx', 'alice')).allowed).toBe(false);
    expect(decide(who('acme', 'bob')).allowed).toBe(true);
    expect(decide(who('acme/bob', '')).allowed).toBe(false);
  });
});
