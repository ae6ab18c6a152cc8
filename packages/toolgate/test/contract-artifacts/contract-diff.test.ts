import { describe, expect, test } from 'vitest';
import {
  CHANGE_CLASSES,
  type ChangeClass,
  type Severity,
} from '../../src/contract-artifacts/change-classes.ts';
import { diffContracts } from '../../src/contract-artifacts/contract-diff.ts';
import type { ContractTool } from '../../src/contract-artifacts/contract-document.ts';
import { sortKeysDeep } from '../../src/contract-artifacts/contract-export.ts';
import { diffReportJson, diffReportText } from '../../src/contract-artifacts/diff-report.ts';
import { at, editTool, ticketContract } from './fixtures/ticket-tools.ts';

const base = ticketContract();
type Props = Record<string, Record<string, unknown>>;
const input = (t: ContractTool) => at(t, 'input_schema', 'properties') as Props;
const result = (t: ContractTool) => at(t, 'output_schema', 'properties', 'result', 'anyOf', 0);
const resultProps = (t: ContractTool) => result(t).properties as Props;
const required = (node: Record<string, unknown>) => node.required as string[];
const IN = '/input_schema/properties';
const OUT = '/output_schema/properties/result/anyOf/0/properties';

interface DiffCase {
  readonly name: string;
  readonly tool: 'tickets_get' | 'tickets_open';
  /** Applied to both sides first, to set up the old state. */
  readonly before?: (t: ContractTool) => void;
  readonly edit: (t: ContractTool) => void;
  readonly change: ChangeClass;
  readonly severity: Severity;
  readonly pointer?: string;
}

const cases: DiffCase[] = [
  {
    name: 'kind changed',
    tool: 'tickets_open',
    edit: (t) => {
      t.kind = 'request';
    },
    change: 'kind_changed',
    severity: 'breaking',
  },
  {
    name: 'mutation changed',
    tool: 'tickets_open',
    edit: (t) => {
      t.mutation = 'update';
    },
    change: 'mutation_changed',
    severity: 'breaking',
  },
  {
    name: 'scope added',
    tool: 'tickets_get',
    edit: (t) => {
      t.scopes.push('tickets:audit');
    },
    change: 'scope_added',
    severity: 'breaking',
    pointer: '/scopes/1',
  },
  {
    name: 'scope removed',
    tool: 'tickets_get',
    edit: (t) => {
      t.scopes = [];
    },
    change: 'scope_removed',
    severity: 'compatible',
  },
  {
    name: 'error removed',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors = t.errors.filter((e) => e.code !== 'TICKET_NOT_FOUND');
    },
    change: 'error_removed',
    severity: 'breaking',
  },
  {
    name: 'error category changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.find((e) => e.code === 'TICKET_NOT_FOUND')!.category = 'state';
    },
    change: 'error_category_changed',
    severity: 'breaking',
  },
  {
    name: 'error retryability changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.find((e) => e.code === 'TICKET_NOT_FOUND')!.retryable = true;
    },
    change: 'error_retryable_changed',
    severity: 'breaking',
  },
  {
    name: 'error added',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.push({
        code: 'TICKET_ARCHIVED',
        category: 'state',
        retryable: false,
        description: 'The ticket was archived.',
      });
    },
    change: 'error_added',
    severity: 'compatible',
  },
  {
    name: 'error reworded',
    tool: 'tickets_get',
    edit: (t) => {
      t.errors.find((e) => e.code === 'TICKET_NOT_FOUND')!.description = 'Gone.';
    },
    change: 'error_description_changed',
    severity: 'compatible',
  },
  {
    name: 'title changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.title = 'Read a ticket';
    },
    change: 'title_changed',
    severity: 'compatible',
  },
  {
    name: 'description changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.description += ' Never guess ids.';
    },
    change: 'description_changed',
    severity: 'compatible',
  },
  {
    name: 'example changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.examples[0]!.input.ticket_id = 'tkt_ffffffffffff';
    },
    change: 'examples_changed',
    severity: 'compatible',
  },
  {
    name: 'annotation changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.annotations.openWorldHint = true;
    },
    change: 'annotations_changed',
    severity: 'compatible',
  },
  {
    name: 'task support added (a contract from before tasks has none)',
    tool: 'tickets_open',
    before: (t) => {
      delete t.task_support;
    },
    edit: (t) => {
      t.task_support = 'optional';
    },
    change: 'task_support_added',
    severity: 'compatible',
    pointer: '/task_support',
  },
  {
    name: 'task support withdrawn',
    tool: 'tickets_open',
    before: (t) => {
      t.task_support = 'optional';
    },
    edit: (t) => {
      t.task_support = 'forbidden';
    },
    change: 'task_support_removed',
    severity: 'breaking',
  },
  {
    name: 'timeout changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.timeout_ms = 5000;
    },
    change: 'timeout_changed',
    severity: 'compatible',
  },
  {
    name: 'external system added',
    tool: 'tickets_open',
    edit: (t) => {
      t.external_systems.push('mailer');
    },
    change: 'policy_changed',
    severity: 'compatible',
    pointer: '/external_systems',
  },
  {
    name: 'retention changed',
    tool: 'tickets_open',
    edit: (t) => {
      t.idempotency!.retention_seconds = 7200;
    },
    change: 'policy_changed',
    severity: 'compatible',
    pointer: '/idempotency',
  },
  {
    name: 'notes changed',
    tool: 'tickets_open',
    edit: (t) => {
      t.notes.push('The desk has no duplicate protection.');
    },
    change: 'notes_changed',
    severity: 'compatible',
  },
  {
    name: 'version changed',
    tool: 'tickets_get',
    edit: (t) => {
      t.version = '1.3.0';
    },
    change: 'version_changed',
    severity: 'compatible',
  },
  {
    name: 'new required input',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).reason = { type: 'string', maxLength: 80 };
      required(t.input_schema).push('reason');
    },
    change: 'input_field_added_required',
    severity: 'breaking',
    pointer: `${IN}/reason`,
  },
  {
    name: 'new optional input',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).reason = { type: 'string', maxLength: 80 };
    },
    change: 'input_field_added_optional',
    severity: 'compatible',
    pointer: `${IN}/reason`,
  },
  {
    name: 'input removed',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).estimate_hours;
    },
    change: 'input_field_removed',
    severity: 'breaking',
    pointer: `${IN}/estimate_hours`,
  },
  {
    name: 'optional input made required',
    tool: 'tickets_open',
    edit: (t) => {
      required(t.input_schema).push('tags');
    },
    change: 'input_made_required',
    severity: 'breaking',
    pointer: `${IN}/tags`,
  },
  {
    name: 'required input made optional',
    tool: 'tickets_open',
    edit: (t) => {
      t.input_schema.required = required(t.input_schema).filter((n) => n !== 'summary');
    },
    change: 'input_made_optional',
    severity: 'compatible',
  },
  {
    name: 'new output field',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).priority = { type: 'string' };
    },
    change: 'output_field_added',
    severity: 'compatible',
    pointer: `${OUT}/priority`,
  },
  {
    name: 'output field removed',
    tool: 'tickets_get',
    edit: (t) => {
      delete resultProps(t).tags;
    },
    change: 'output_field_removed',
    severity: 'breaking',
    pointer: `${OUT}/tags`,
  },
  {
    name: 'output made optional',
    tool: 'tickets_get',
    edit: (t) => {
      result(t).required = ['ticket_id', 'status', 'tags'];
    },
    change: 'output_made_optional',
    severity: 'breaking',
    pointer: `${OUT}/assignee`,
  },
  {
    name: 'output made required',
    tool: 'tickets_get',
    before: (t) => {
      result(t).required = ['ticket_id', 'status', 'tags'];
    },
    edit: (t) => {
      result(t).required = ['ticket_id', 'status', 'tags', 'assignee'];
    },
    change: 'output_made_required',
    severity: 'compatible',
  },
  {
    name: 'input enum value removed',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).queue!.enum = ['billing'];
    },
    change: 'enum_value_removed',
    severity: 'breaking',
    pointer: `${IN}/queue`,
  },
  {
    name: 'input enum value added',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).queue!.enum = ['billing', 'technical', 'sales'];
    },
    change: 'enum_value_added',
    severity: 'compatible',
  },
  {
    name: 'output enum value added',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).status!.enum = ['open', 'pending', 'closed', 'escalated'];
    },
    change: 'enum_value_added',
    severity: 'breaking',
    pointer: `${OUT}/status`,
  },
  {
    name: 'output enum value removed',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).status!.enum = ['open', 'closed'];
    },
    change: 'enum_value_removed',
    severity: 'compatible',
  },
  {
    name: 'input nullable made non-null',
    tool: 'tickets_open',
    edit: (t) => {
      at(input(t), 'contact', 'properties').phone = {
        type: 'string',
        maxLength: 32,
        description: 'Phone number for urgent follow-up, or null.',
      };
    },
    change: 'type_narrowed',
    severity: 'breaking',
    pointer: `${IN}/contact/properties/phone`,
  },
  {
    name: 'input number made integer',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).estimate_hours!.type = 'integer';
    },
    change: 'type_narrowed',
    severity: 'breaking',
  },
  {
    name: 'output nullable made non-null',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).assignee = {
        type: 'string',
        maxLength: 80,
        description: 'Who works on it, null while unassigned.',
      };
    },
    change: 'type_narrowed',
    severity: 'compatible',
  },
  {
    name: 'input made nullable',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).summary!.type = ['string', 'null'];
    },
    change: 'type_widened',
    severity: 'compatible',
  },
  {
    name: 'output made nullable',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).ticket_id!.type = ['string', 'null'];
    },
    change: 'type_widened',
    severity: 'breaking',
  },
  {
    name: 'input type changed',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).estimate_hours = { type: 'string', maxLength: 8, description: 'Expected effort in hours.' };
    },
    change: 'type_changed',
    severity: 'breaking',
  },
  {
    name: 'input maxLength lowered',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).summary!.maxLength = 120;
    },
    change: 'bounds_tightened',
    severity: 'breaking',
    pointer: `${IN}/summary`,
  },
  {
    name: 'input minimum raised',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).estimate_hours!.minimum = 1;
    },
    change: 'bounds_tightened',
    severity: 'breaking',
  },
  {
    name: 'input maxItems lowered',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).tags!.maxItems = 5;
    },
    change: 'bounds_tightened',
    severity: 'breaking',
  },
  {
    name: 'nested array item bound lowered',
    tool: 'tickets_open',
    edit: (t) => {
      at(input(t), 'tags', 'items').maxLength = 20;
    },
    change: 'bounds_tightened',
    severity: 'breaking',
    pointer: `${IN}/tags/items`,
  },
  {
    name: 'input pattern added',
    tool: 'tickets_open',
    before: (t) => {
      delete input(t).summary!.pattern;
    },
    edit: (t) => {
      input(t).summary!.pattern = '^[^<>]+$';
    },
    change: 'bounds_tightened',
    severity: 'breaking',
  },
  {
    name: 'input enum introduced',
    tool: 'tickets_open',
    edit: (t) => {
      at(input(t), 'contact', 'properties', 'email').enum = ['a@example.com'];
    },
    change: 'bounds_tightened',
    severity: 'breaking',
  },
  {
    name: 'output maxItems lowered',
    tool: 'tickets_get',
    edit: (t) => {
      resultProps(t).tags!.maxItems = 5;
    },
    change: 'bounds_tightened',
    severity: 'compatible',
  },
  {
    name: 'input maxLength raised',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).summary!.maxLength = 200;
    },
    change: 'bounds_loosened',
    severity: 'compatible',
  },
  {
    name: 'input maximum removed',
    tool: 'tickets_open',
    edit: (t) => {
      delete input(t).estimate_hours!.maximum;
    },
    change: 'bounds_loosened',
    severity: 'compatible',
  },
  {
    name: 'output bound raised',
    tool: 'tickets_get',
    edit: (t) => {
      at(resultProps(t), 'assignee', 'anyOf', 0).maxLength = 200;
    },
    change: 'bounds_loosened',
    severity: 'breaking',
    pointer: `${OUT}/assignee/anyOf/0`,
  },
  {
    name: 'pattern changed',
    tool: 'tickets_get',
    edit: (t) => {
      input(t).ticket_id!.pattern = '^tkt_[0-9a-f]{16}$';
    },
    change: 'pattern_changed',
    severity: 'breaking',
    pointer: `${IN}/ticket_id`,
  },
  {
    name: 'input default changed',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).dry_run!.default = false;
    },
    change: 'default_changed',
    severity: 'breaking',
    pointer: `${IN}/dry_run`,
  },
  {
    name: 'input object closed',
    tool: 'tickets_open',
    before: (t) => {
      delete input(t).contact!.additionalProperties;
    },
    edit: (t) => {
      input(t).contact!.additionalProperties = false;
    },
    change: 'object_closed',
    severity: 'breaking',
  },
  {
    name: 'output object opened',
    tool: 'tickets_get',
    edit: (t) => {
      delete result(t).additionalProperties;
    },
    change: 'object_opened',
    severity: 'breaking',
  },
  {
    name: 'field description changed',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).summary!.description = 'Short problem statement.';
    },
    change: 'field_description_changed',
    severity: 'compatible',
  },
  {
    name: 'field mirrored into a header',
    tool: 'tickets_open',
    edit: (t) => {
      input(t).summary!['x-mcp-header'] = 'Summary';
    },
    change: 'field_header_changed',
    severity: 'compatible',
  },
];

describe('contract diff classifies each change', () => {
  test.each(cases)('$name -> $change ($severity)', ({ tool, before, edit, change, severity, pointer }) => {
    const old = before ? editTool(base, tool, before) : base;
    const next = editTool(base, tool, (t) => {
      before?.(t);
      edit(t);
    });
    const diff = diffContracts(old, next);
    const found = diff.changes.filter((c) => c.change === change && c.tool === tool);
    expect(found, JSON.stringify(diff.changes, null, 2)).not.toHaveLength(0);
    expect(found.every((c) => c.severity === severity)).toBe(true);
    if (pointer) expect(found.map((c) => c.pointer)).toContain(pointer);
    expect(diff.ok).toBe(diff.changes.every((c) => c.severity === 'compatible'));
  });

  test('every change class has a case (tool-level additions and removals are tested below)', () => {
    const covered = new Set<string>([
      ...cases.map((c) => c.change),
      'tool_added',
      'tool_removed',
      'tool_renamed',
    ]);
    expect(Object.keys(CHANGE_CLASSES).filter((c) => !covered.has(c))).toEqual([]);
  });
});

describe('contract diff across tools and versions', () => {
  test('identical contracts, whatever their key order, have no changes', () => {
    const reordered = JSON.parse(
      JSON.stringify(sortKeysDeep(base), (_k, v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    );
    const diff = diffContracts(base, reordered);
    expect(diff.changes).toEqual([]);
    expect(diff.ok).toBe(true);
    expect(diffReportText(diff)).toContain('No contract changes.');
  });

  test('a new tool is compatible', () => {
    const next = structuredClone(base);
    next.tools.push({
      ...structuredClone(next.tools[0]!),
      name: 'tickets_search',
      input_schema: { type: 'object', properties: {}, additionalProperties: false },
    });
    const diff = diffContracts(base, next);
    expect(diff.changes).toEqual([
      expect.objectContaining({ tool: 'tickets_search', change: 'tool_added', severity: 'compatible' }),
    ]);
    expect(diff.ok).toBe(true);
  });

  test('a removed tool fails the gate unless its removal is allowed', () => {
    const next = { ...base, tools: base.tools.filter((t) => t.name !== 'tickets_get') };
    const refused = diffContracts(base, next);
    expect(refused.changes).toEqual([
      expect.objectContaining({ tool: 'tickets_get', change: 'tool_removed', severity: 'breaking' }),
    ]);
    expect(refused.ok).toBe(false);
    expect(diffContracts(base, next, { allowRemoved: ['tickets_get'] }).ok).toBe(true);
  });

  test('a tool that reappears under another name with the same schemas is a rename', () => {
    const next = editTool(base, 'tickets_get', (t) => {
      t.name = 'tickets_fetch';
    });
    const diff = diffContracts(base, next);
    expect(diff.changes.map((c) => [c.tool, c.change])).toEqual([
      ['tickets_fetch', 'tool_added'],
      ['tickets_get', 'tool_renamed'],
    ]);
    expect(diff.changes[1]!.message).toContain('tickets_fetch');
    expect(diff.ok).toBe(false);
  });

  test('a breaking change passes only with a major version bump of that tool', () => {
    const tighten = (t: ContractTool) => {
      input(t).summary!.maxLength = 100;
    };
    const same = diffContracts(base, editTool(base, 'tickets_open', tighten));
    expect(same.ok).toBe(false);
    expect(same.verdicts.find((v) => v.tool === 'tickets_open')).toMatchObject({
      accepted: false,
      reason: 'needs major version 3.0.0',
    });
    const minor = diffContracts(
      base,
      editTool(base, 'tickets_open', (t) => {
        tighten(t);
        t.version = '2.1.0';
      }),
    );
    expect(minor.ok).toBe(false);
    const major = diffContracts(
      base,
      editTool(base, 'tickets_open', (t) => {
        tighten(t);
        t.version = '3.0.0';
      }),
    );
    expect(major.ok).toBe(true);
    expect(major.verdicts.find((v) => v.tool === 'tickets_open')).toMatchObject({
      accepted: true,
      breaking: 1,
    });
    const otherTool = diffContracts(
      base,
      editTool(editTool(base, 'tickets_open', tighten), 'tickets_get', (t) => {
        t.version = '2.0.0';
      }),
    );
    expect(otherTool.ok).toBe(false);
  });

  test('reports name the tool, the class and the verdict for people and machines', () => {
    const diff = diffContracts(
      base,
      editTool(base, 'tickets_open', (t) => {
        input(t).summary!.maxLength = 100;
        t.description += ' Never for outages.';
      }),
    );
    const text = diffReportText(diff);
    expect(text).toContain('tickets_open 2.0.1 -> 2.0.1  [BREAKING: needs major version 3.0.0]');
    expect(text).toContain('! bounds tightened: input summary: maxLength 160 -> 100');
    expect(text).toContain('~ description changed');
    expect(text).toContain('Not accepted: tickets_open.');
    const json = JSON.parse(diffReportJson(diff));
    expect(json).toMatchObject({
      ok: false,
      summary: { breaking: 1, compatible: 1, unaccepted_tools: ['tickets_open'] },
    });
    expect(json.changes[0]).toMatchObject({
      tool: 'tickets_open',
      change: 'bounds_tightened',
      pointer: `${IN}/summary`,
    });
  });
});

describe('contract diff on schemas with references', () => {
  test('follows local $refs and stops on recursive ones', () => {
    const withTree = (maxLength: number) =>
      editTool(base, 'tickets_get', (t) => {
        t.input_schema.$defs = {
          node: {
            type: 'object',
            additionalProperties: false,
            properties: {
              label: { type: 'string', maxLength, description: 'Label of this node.' },
              children: {
                type: 'array',
                maxItems: 5,
                items: { $ref: '#/$defs/node' },
                description: 'Sub-nodes.',
              },
            },
          },
        };
        input(t).tree = { $ref: '#/$defs/node', description: 'A tree of labels.' };
      });
    const diff = diffContracts(withTree(40), withTree(20));
    // Once for the tree itself; the recursive children are the same comparison and are not repeated.
    expect(diff.changes.filter((c) => c.change === 'bounds_tightened').map((c) => c.pointer)).toEqual([
      `${IN}/tree/properties/label`,
    ]);
    expect(diff.ok).toBe(false);
  });
});
