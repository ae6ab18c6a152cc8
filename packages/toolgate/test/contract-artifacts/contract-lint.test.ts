import { describe, expect, test } from 'vitest';
import type { ContractDocument, ContractTool } from '../../src/contract-artifacts/contract-document.ts';
import {
  LINT_RULES,
  lintContract,
  lintReportJson,
  lintReportText,
} from '../../src/contract-artifacts/contract-lint.ts';
import { patternIsBounded } from '../../src/contract-artifacts/lint-schema-rules.ts';
import { at, editTool, ticketContract } from './fixtures/ticket-tools.ts';

const base = ticketContract();
type Props = Record<string, Record<string, unknown>>;
const input = (t: ContractTool) => at(t, 'input_schema', 'properties') as Props;
const IN = '/input_schema/properties';
const resultProps = (t: ContractTool) =>
  at(t, 'output_schema', 'properties', 'result', 'anyOf', 0, 'properties') as Props;
const OUT = '/output_schema/properties/result/anyOf/0/properties';

interface LintCase {
  readonly name: string;
  readonly rule: string;
  readonly tool: 'tickets_get' | 'tickets_open';
  readonly edit: (t: ContractTool) => void;
  /** Builds the whole document instead, for rules that compare tools. */
  readonly document?: () => ContractDocument;
  readonly pointer: string;
  readonly rehash?: false;
}

const withExtraTool = (edit: (t: ContractTool) => void) => () => {
  const copy = structuredClone(base);
  const extra = structuredClone(copy.tools[0]!);
  edit(extra);
  copy.tools.push(extra);
  return copy;
};

const cases: LintCase[] = [
  {
    name: 'name with capitals and a dash',
    rule: 'name-pattern',
    tool: 'tickets_get',
    edit: (t) => {
      t.name = 'Tickets-Get';
    },
    pointer: '/name',
  },
  {
    name: 'name over 64 characters',
    rule: 'name-pattern',
    tool: 'tickets_get',
    edit: (t) => {
      t.name = `tickets_${'x'.repeat(60)}`;
    },
    pointer: '/name',
  },
  {
    name: 'verb first',
    rule: 'name-namespace',
    tool: 'tickets_get',
    edit: (t) => {
      t.name = 'get_ticket';
    },
    pointer: '/name',
  },
  {
    name: 'single word',
    rule: 'name-namespace',
    tool: 'tickets_get',
    edit: (t) => {
      t.name = 'tickets';
    },
    pointer: '/name',
  },
  {
    name: 'duplicate name',
    rule: 'name-unique',
    tool: 'tickets_get',
    edit: () => {},
    document: withExtraTool(() => {}),
    pointer: '/name',
  },
  {
    name: 'version suffix',
    rule: 'name-near-duplicate',
    tool: 'tickets_open',
    edit: (t) => {
      t.name = 'tickets_open_v2';
    },
    pointer: '/name',
  },
  {
    name: 'variant suffix',
    rule: 'name-near-duplicate',
    tool: 'tickets_open',
    edit: (t) => {
      t.name = 'tickets_open_advanced';
    },
    pointer: '/name',
  },
  {
    name: 'names differing by one vague word',
    rule: 'name-near-duplicate',
    tool: 'tickets_get',
    edit: () => {},
    document: withExtraTool((t) => {
      t.name = 'tickets_get_details';
    }),
    pointer: '/name',
  },
  {
    name: 'empty description',
    rule: 'description-present',
    tool: 'tickets_get',
    edit: (t) => {
      t.description = '';
    },
    pointer: '/description',
  },
  {
    name: 'description restating the name',
    rule: 'description-present',
    tool: 'tickets_get',
    edit: (t) => {
      t.description = 'Tickets get.';
    },
    pointer: '/description',
  },
  {
    name: 'short description',
    rule: 'description-length',
    tool: 'tickets_get',
    edit: (t) => {
      t.description = 'Returns a ticket. Do not use it to search.';
    },
    pointer: '/description',
  },
  {
    name: 'description without exclusions',
    rule: 'description-when-not',
    tool: 'tickets_get',
    edit: (t) => {
      t.description =
        'Returns one help-desk ticket with its status, assignee and tags, as stored by the desk, for the ticket id the user names.';
    },
    pointer: '/description',
  },
  {
    name: 'a "never" that is no exclusion',
    rule: 'description-when-not',
    tool: 'tickets_get',
    edit: (t) => {
      t.description =
        'Returns one help-desk ticket with its status, assignee and tags. Ticket ids are never reused, so an old id stays valid.';
    },
    pointer: '/description',
  },
  {
    name: 'undescribed input',
    rule: 'property-description',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).summary!.description;
    },
    pointer: `${IN}/summary`,
  },
  {
    name: 'undescribed nested input',
    rule: 'property-description',
    tool: 'tickets_open',
    edit: (t) => {
      delete at(input(t), 'contact', 'properties', 'email').description;
    },
    pointer: `${IN}/contact/properties/email`,
  },
  {
    name: 'undescribed result field',
    rule: 'result-property-description',
    tool: 'tickets_get',
    edit: (t) => {
      delete resultProps(t).status!.description;
    },
    pointer: `${OUT}/status`,
  },
  {
    name: 'result field described in a word, nested',
    rule: 'result-property-description',
    tool: 'tickets_open',
    edit: (t) => {
      resultProps(t).sla = {
        type: 'object',
        description: 'Service level the desk promises for this ticket.',
        properties: { due_at: { type: 'string', description: 'Due.' } },
      };
    },
    pointer: `${OUT}/sla/properties/due_at`,
  },
  {
    name: 'open nested object',
    rule: 'closed-object',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).contact!.additionalProperties;
    },
    pointer: `${IN}/contact`,
  },
  {
    name: 'unbounded string',
    rule: 'bounded-string',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).summary!.maxLength;
    },
    pointer: `${IN}/summary`,
  },
  {
    name: 'open-ended pattern',
    rule: 'bounded-string',
    tool: 'tickets_get',
    edit: (t) => {
      input(t).ticket_id!.pattern = '^tkt_[0-9a-f]+$';
    },
    pointer: `${IN}/ticket_id`,
  },
  {
    name: 'unbounded nullable string',
    rule: 'bounded-string',
    tool: 'tickets_open',
    edit: (t) => {
      delete at(input(t), 'contact', 'properties', 'phone', 'anyOf', 0).maxLength;
    },
    pointer: `${IN}/contact/properties/phone/anyOf/0`,
  },
  {
    name: 'free text without a pattern',
    rule: 'free-text-pattern',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).summary!.pattern;
    },
    pointer: `${IN}/summary`,
  },
  {
    name: 'nullable free text without a pattern, nested',
    rule: 'free-text-pattern',
    tool: 'tickets_open',
    edit: (t) => {
      delete at(input(t), 'contact', 'properties', 'phone', 'anyOf', 0).pattern;
    },
    pointer: `${IN}/contact/properties/phone/anyOf/0`,
  },
  {
    name: 'number without maximum',
    rule: 'bounded-number',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).estimate_hours!.maximum;
    },
    pointer: `${IN}/estimate_hours`,
  },
  {
    name: 'array without maxItems',
    rule: 'bounded-array',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).tags!.maxItems;
    },
    pointer: `${IN}/tags`,
  },
  {
    name: 'tenant in the input',
    rule: 'trusted-context-field',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).tenant_id = { type: 'string', maxLength: 40, description: 'Tenant to open it in.' };
    },
    pointer: `${IN}/tenant_id`,
  },
  {
    name: 'approval flag nested in the input',
    rule: 'trusted-context-field',
    tool: 'tickets_open',
    edit: (t) => {
      at(input(t), 'contact', 'properties').approval_complete = {
        type: 'boolean',
        description: 'Approved already.',
      };
    },
    pointer: `${IN}/contact/properties/approval_complete`,
  },
  {
    name: 'bypass flag',
    rule: 'trusted-context-field',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).bypass_queue_check = { type: 'boolean', description: 'Skip the queue check.' };
    },
    pointer: `${IN}/bypass_queue_check`,
  },
  {
    name: 'output without the envelope',
    rule: 'output-schema',
    tool: 'tickets_get',
    edit: (t) => {
      delete at(t, 'output_schema', 'properties').status;
    },
    pointer: '/output_schema',
  },
  {
    name: 'untyped result',
    rule: 'output-schema',
    tool: 'tickets_get',
    edit: (t) => {
      at(t, 'output_schema', 'properties').result = {};
    },
    pointer: '/output_schema/properties/result',
  },
  {
    name: 'dry run off by default',
    rule: 'safe-defaults',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).dry_run!.default = false;
    },
    pointer: `${IN}/dry_run`,
  },
  {
    name: 'consent assumed by default',
    rule: 'safe-defaults',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).confirm_duplicate = {
        type: 'boolean',
        default: true,
        description: 'Open it even if similar.',
      };
    },
    pointer: `${IN}/confirm_duplicate`,
  },
  {
    name: 'target decided by default',
    rule: 'safe-defaults',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).region = {
        type: 'string',
        enum: ['eu', 'us'],
        default: 'eu',
        description: 'Region of the desk.',
      };
    },
    pointer: `${IN}/region`,
  },
  {
    name: 'write without a key',
    rule: 'idempotency-key',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).idempotency_key;
    },
    pointer: `${IN}/idempotency_key`,
  },
  {
    name: 'short key',
    rule: 'idempotency-key',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).idempotency_key!.minLength = 4;
    },
    pointer: `${IN}/idempotency_key`,
  },
  {
    name: 'no retention policy',
    rule: 'idempotency-key',
    tool: 'tickets_open',
    edit: (t) => {
      t.idempotency = null;
    },
    pointer: '/idempotency',
  },
  {
    name: 'no error codes',
    rule: 'error-catalog',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors = [];
    },
    pointer: '/errors',
  },
  {
    name: 'unknown category',
    rule: 'error-catalog',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.at(-1)!.category = 'oops';
    },
    pointer: `/errors/${base.tools[0]!.errors.length - 1}/category`,
  },
  {
    name: 'one code, two meanings',
    rule: 'error-catalog',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.find((e) => e.code === 'FORBIDDEN')!.retryable = true;
    },
    pointer: `/errors/${base.tools[0]!.errors.findIndex((e) => e.code === 'FORBIDDEN')}`,
  },
  {
    name: 'no examples',
    rule: 'examples-present',
    tool: 'tickets_get',
    edit: (t) => {
      t.examples = [];
    },
    pointer: '/examples',
  },
  {
    name: 'example with an invented field',
    rule: 'examples-valid',
    tool: 'tickets_open',
    edit: (t) => {
      t.examples[0]!.input.skip_review = true;
    },
    pointer: '/examples/0/input',
  },
  {
    name: 'an input schema ajv cannot compile (a pattern that is not a regular expression)',
    rule: 'examples-valid',
    tool: 'tickets_open',
    edit: (t) => {
      const [field] = Object.keys(input(t));
      input(t)[field!]!.pattern = '([a-z';
    },
    pointer: '/input_schema',
  },
  {
    name: 'example with a wrong enum',
    rule: 'examples-valid',
    tool: 'tickets_open',
    edit: (t) => {
      t.examples[0]!.input.queue = 'sales';
    },
    pointer: '/examples/0/input',
  },
  {
    name: 'no scope',
    rule: 'scopes-declared',
    tool: 'tickets_get',
    edit: (t) => {
      t.scopes = [];
    },
    pointer: '/scopes',
  },
  {
    name: 'catch-all scope',
    rule: 'scopes-declared',
    tool: 'tickets_get',
    edit: (t) => {
      t.scopes = ['tickets:*'];
    },
    pointer: '/scopes/0',
  },
  {
    name: 'read tool not read-only',
    rule: 'annotations-consistent',
    tool: 'tickets_get',
    edit: (t) => {
      t.annotations.readOnlyHint = false;
    },
    pointer: '/annotations/readOnlyHint',
  },
  {
    name: 'version not semver',
    rule: 'annotations-consistent',
    tool: 'tickets_get',
    edit: (t) => {
      t.version = '1.2';
    },
    pointer: '/version',
  },
  {
    name: 'hand-edited definition',
    rule: 'definition-hash',
    tool: 'tickets_get',
    edit: (t) => {
      t.description += ' Edited.';
    },
    pointer: '/definition_sha256',
    rehash: false,
  },
];

describe('lint rules', () => {
  test('the fixture contract lints clean', () => {
    const report = lintContract(base);
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
  });

  test.each(cases)('$rule trips on: $name', ({ rule, tool, edit, document, pointer, rehash }) => {
    const edited = document ? document() : editTool(base, tool, edit, { rehash: rehash ?? true });
    const report = lintContract(edited);
    const found = report.findings.filter((f) => f.rule === rule);
    expect(found, JSON.stringify(report.findings, null, 2)).not.toHaveLength(0);
    expect(found.map((f) => f.pointer)).toContain(pointer);
    const spec = LINT_RULES.find((r) => r.id === rule)!;
    for (const finding of found) {
      expect(finding.severity).toBe(spec.severity);
      expect(finding.fix.length).toBeGreaterThan(10);
      expect(finding.message.length).toBeGreaterThan(10);
    }
    expect(report.ok).toBe(false);
  });

  test('every rule has a case that trips it', () => {
    const covered = new Set(cases.map((c) => c.rule));
    expect(LINT_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  test('result descriptions are checked inside result only, not on the envelope around it', () => {
    const edited = editTool(base, 'tickets_get', (t) => {
      delete at(t, 'output_schema', 'properties', 'tool').description;
      delete at(t, 'output_schema', 'properties', 'result').description;
    });
    expect(lintContract(edited).findings.filter((f) => f.rule === 'result-property-description')).toEqual([]);
  });

  test('description findings name the side, the field and what is wrong with its description', () => {
    const edited = editTool(base, 'tickets_open', (t) => {
      delete input(t).summary!.description;
      resultProps(t).ticket_id!.description = 'Id.';
    });
    const messages = lintContract(edited)
      .findings.filter((f) => f.rule.endsWith('property-description'))
      .map((f) => [f.rule, f.pointer, f.message]);
    expect(messages).toEqual([
      ['property-description', `${IN}/summary`, 'input field summary has no description'],
      [
        'result-property-description',
        `${OUT}/ticket_id`,
        'result field ticket_id has a too short description',
      ],
    ]);
  });

  test('bounded patterns are anchored and have no open-ended repetition', () => {
    expect(patternIsBounded('^ord_[0-9a-f]{32}$')).toBe(true);
    expect(patternIsBounded('^[a-z0-9][a-z0-9-]{2,62}$')).toBe(true);
    expect(patternIsBounded('^a\\+b$')).toBe(true);
    expect(patternIsBounded('^[a-z]+$')).toBe(false);
    expect(patternIsBounded('^[a-z]{2,}$')).toBe(false);
    expect(patternIsBounded('[a-z]{2}')).toBe(false);
  });

  test('reports carry rule, severity, tool, pointer and fix', () => {
    const report = lintContract(
      editTool(base, 'tickets_open', (t) => {
        delete input(t).tags!.maxItems;
      }),
    );
    const json = JSON.parse(lintReportJson(report));
    expect(json).toMatchObject({ ok: false, errors: 1, warnings: 0 });
    expect(json.findings).toEqual([
      {
        rule: 'bounded-array',
        severity: 'error',
        tool: 'tickets_open',
        pointer: `${IN}/tags`,
        message: 'input field tags is an array without maxItems',
        fix: 'Add .max(n) to the array.',
      },
    ]);
    const text = lintReportText(report, 2);
    expect(text).toContain('error   bounded-array  tickets_open /input_schema/properties/tags');
    expect(text).toContain(`2 tool(s) checked against ${LINT_RULES.length} rules: 1 error(s), 0 warning(s).`);
  });
});
