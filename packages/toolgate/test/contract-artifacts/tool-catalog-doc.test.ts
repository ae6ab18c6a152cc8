import { describe, expect, test } from 'vitest';
import { CONTRACT_FORMAT } from '../../src/contract-artifacts/contract-document.ts';
import { renderToolCatalog } from '../../src/contract-artifacts/tool-catalog-doc.ts';
import { ticketContract } from './fixtures/ticket-tools.ts';

const doc = renderToolCatalog(ticketContract());
const section = (name: string) => doc.slice(doc.indexOf(`## ${name}\n`)).split(/\n## /)[0]!;

describe('tool catalog', () => {
  test('opens with the regeneration command and an index of every tool', () => {
    expect(doc.startsWith('# Tool catalog\n')).toBe(true);
    expect(doc).toContain('`npx toolgate contract docs --out docs/tools.md`');
    expect(doc).toContain(
      '| [tickets_open](#tickets_open) | write | 2.0.1 | `tickets:write` | Opens one help-desk ticket',
    );
    expect(renderToolCatalog(ticketContract())).toBe(doc);
  });

  test('lists inputs with type, requiredness, constraints and description, nested fields dotted', () => {
    const open = section('tickets_open');
    expect(open).toContain('| Kind | write (create) |');
    expect(open).toContain(
      '| `queue` | string | yes | one of `"billing"`, `"technical"` | Queue that owns the problem. |',
    );
    expect(open).toContain(
      '| `contact.phone` | string \\| null | yes | min length 3; max length 32; pattern | Phone number for urgent follow-up, or null. |',
    );
    expect(open).toContain('| `tags` | array of string | no | max items 10; default `[]` | Labels to add. |');
    expect(open).toContain('| `due_at` | string | no | format date-time |');
    expect(open).toContain(
      '| Idempotency | required key; records kept 3600 s; scope: tenant, subject, key |',
    );
  });

  test("lists result fields, the tool's own error codes, shared codes once, and examples", () => {
    const get = section('tickets_get');
    expect(get).toContain('| `assignee` | string \\| null | Who works on it, null while unassigned. |');
    expect(get).toContain(
      '| `status` | `"open"` \\| `"pending"` \\| `"closed"` | Workflow state of the ticket. |',
    );
    expect(get).toContain('| `TICKET_NOT_FOUND` | not_found | no |');
    expect(get).not.toContain('`QUEUE_CLOSED`');
    expect(get).not.toContain('| `FORBIDDEN` |');
    expect(doc.match(/\| `FORBIDDEN` \|/g)).toHaveLength(1);
    expect(section('Codes every tool may answer')).toContain('| `OUTCOME_UNKNOWN` | uncertain | yes |');
    expect(get).toContain('```json\n{\n  "ticket_id": "tkt_0123456789ab"\n}\n```');
  });

  test('an empty contract says so', () => {
    expect(renderToolCatalog({ format: CONTRACT_FORMAT, tools: [] })).toContain('No tools are registered.');
  });
});
