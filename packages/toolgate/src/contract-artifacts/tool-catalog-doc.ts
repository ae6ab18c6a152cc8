import {
  type ContractDocument,
  type ContractError,
  type ContractTool,
  toolLabel,
} from './contract-document.ts';
import { compareText, sortKeysDeep } from './contract-export.ts';
import {
  branchesOf,
  descriptionOf,
  enumValuesOf,
  isNode,
  type SchemaNode,
  typeLabel,
} from './schema-shape.ts';
import { walkSchema } from './schema-walk.ts';

export const DOCS_COMMAND = 'npx toolgate contract docs --out docs/tools.md';

const CONSTRAINTS = [
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minimum', 'min'],
  ['exclusiveMinimum', 'greater than'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'less than'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['format', 'format'],
] as const;
const MAX_PATTERN_SHOWN = 48;
const COMMON_ANCHOR = 'codes-every-tool-may-answer';

const cell = (text: string) =>
  text
    .replaceAll('\\', '\\\\')
    .replaceAll('|', '\\|')
    .replace(/\s*\n\s*/g, ' ');
const code = (text: string) => `\`${text.replaceAll('`', "'")}\``;

function constraintsOf(node: SchemaNode): string {
  const parts: string[] = [];
  const values = enumValuesOf(node);
  if (values) parts.push(`one of ${values.map((v) => code(JSON.stringify(v))).join(', ')}`);
  for (const branch of branchesOf(node)) {
    for (const [keyword, label] of CONSTRAINTS) {
      if (branch[keyword] !== undefined) parts.push(`${label} ${branch[keyword]}`);
    }
    if (typeof branch.pattern === 'string' && branch.format === undefined) {
      parts.push(branch.pattern.length <= MAX_PATTERN_SHOWN ? `pattern ${code(branch.pattern)}` : 'pattern');
    }
  }
  if (node.default !== undefined) parts.push(`default ${code(JSON.stringify(node.default))}`);
  return parts.join('; ');
}

/** For result fields, the closed set of values when there is one: what the agent must be ready to read. */
function valuesLabel(node: SchemaNode): string {
  const values = enumValuesOf(node);
  if (!values) return typeLabel(node);
  const nullable =
    branchesOf(node).some((b) => b.type === 'null') ||
    (Array.isArray(node.type) && node.type.includes('null'));
  return [...values.map((v) => code(JSON.stringify(v))), ...(nullable ? ['null'] : [])].join(' | ');
}

/**
 * The schema with each object's properties listed required first, then by name. The committed
 * contract has sorted keys, so the catalog must not depend on declaration order to render the same
 * from a contract file as from the running code.
 */
function orderedForReading(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(orderedForReading);
  if (!isNode(value)) return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, orderedForReading(v)]));
  if (isNode(out.properties)) {
    const required = new Set(Array.isArray(out.required) ? out.required : []);
    const rank = (name: string) => `${required.has(name) ? 0 : 1}${name}`;
    out.properties = Object.fromEntries(
      Object.entries(out.properties).sort(([a], [b]) => compareText(rank(a), rank(b))),
    );
  }
  return out;
}

function fieldRows(rawSchema: SchemaNode, withConstraints: boolean): string[] {
  const rows: string[] = [];
  const schema = orderedForReading(rawSchema) as SchemaNode;
  walkSchema(schema, '', ({ node, field, property, branch }) => {
    if (property === null || branch) return;
    const parentPath = field.slice(0, field.length - property.length).replace(/\.$/, '');
    const required = requiredIn(schema, parentPath, property);
    const description = cell(descriptionOf(node) ?? '');
    const type = cell(withConstraints ? typeLabel(node) : valuesLabel(node));
    rows.push(
      withConstraints
        ? `| ${code(field)} | ${type} | ${required ? 'yes' : 'no'} | ${cell(constraintsOf(node))} | ${description} |`
        : `| ${code(field)} | ${type} | ${description} |`,
    );
  });
  return rows;
}

/** Whether `property` is required in the object found at the dotted `path` (through arrays and nullables). */
function requiredIn(schema: SchemaNode, path: string, property: string): boolean {
  let objects = [schema];
  for (const part of path === '' ? [] : path.split('.')) {
    const name = part.replace(/\[\]$/g, '');
    objects = objects
      .flatMap((o) => branchesOf(o))
      .flatMap((o) => {
        const next = isNode(o.properties) ? o.properties[name] : undefined;
        if (!isNode(next)) return [];
        return part.endsWith('[]')
          ? branchesOf(next).flatMap((b) => (isNode(b.items) ? [b.items] : []))
          : [next];
      });
  }
  return objects
    .flatMap((o) => branchesOf(o))
    .some((o) => Array.isArray(o.required) && o.required.includes(property));
}

function errorTable(errors: readonly ContractError[]): string[] {
  const rows = errors.map(
    (e) => `| ${code(e.code)} | ${e.category} | ${e.retryable ? 'yes' : 'no'} | ${cell(e.description)} |`,
  );
  return ['| Code | Category | Retryable | Meaning |', '|---|---|---|---|', ...rows];
}

/** Codes published identically by every tool (the gateway's own), listed once instead of per tool. */
function commonErrors(document: ContractDocument): ContractError[] {
  const [first, ...rest] = document.tools;
  if (!first || rest.length === 0) return [];
  const key = (e: ContractError) => `${e.code}|${e.category}|${e.retryable}|${e.description}`;
  return first.errors.filter((e) => rest.every((t) => t.errors.some((o) => key(o) === key(e))));
}

/**
 * A tool's heading: its name, with the version for a name the catalog lists in more than one (each
 * section keeps an anchor of its own).
 */
function headingOf(tool: ContractTool, document: ContractDocument): string {
  return toolLabel(tool, document).replace('@', ' ');
}

/** The anchor GitHub gives a heading: lower case, spaces as hyphens, other punctuation but _ and - dropped. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9_ -]/g, '')
    .replace(/ /g, '-');
}

function toolSection(tool: ContractTool, common: ReadonlySet<string>, heading: string): string {
  const out: string[] = [`## ${heading}`, '', `**${tool.title}**`, '', tool.description, ''];
  const policy = tool.idempotency
    ? `required key; records kept ${tool.idempotency.retention_seconds} s; scope: ${tool.idempotency.scope}`
    : 'not applicable (read)';
  out.push(
    '| Property | Value |',
    '|---|---|',
    `| Kind | ${tool.kind}${tool.mutation ? ` (${tool.mutation})` : ''} |`,
    `| Contract version | ${tool.version} |`,
    `| Scopes | ${tool.scopes.map(code).join(', ')} |`,
    `| Timeout | ${tool.timeout_ms} ms |`,
    `| Idempotency | ${cell(policy)} |`,
    `| Dry run | ${tool.supports_dry_run ? 'supported (`dry_run`)' : 'no'} |`,
  );
  if (tool.task_support) out.push(`| MCP task | ${tool.task_support} |`);
  if (tool.rollout) {
    const { groups, percent } = tool.rollout;
    const who = [
      ...(groups.length > 0 ? [`groups ${groups.map(code).join(', ')}`] : []),
      `${percent}% of subjects`,
    ];
    out.push(`| Rollout | served to ${who.join(' or ')}; everyone else gets the version without a rollout |`);
  }
  if (tool.duplicate_suspicion) {
    const { window_seconds, confirm_field } = tool.duplicate_suspicion;
    out.push(`| Duplicate check | within ${window_seconds} s; confirm with ${code(confirm_field)} |`);
  }
  if (tool.confirmation) {
    const { when, fallback } = tool.confirmation;
    const other = {
      refuse: 'refused (`CONFIRMATION_UNAVAILABLE`)',
      agent: 'the agent relays the question and sends back its confirmation digest',
      operator:
        'parked (`in_progress`, `CONFIRMATION_PENDING`) until an approver confirms it in the operator console',
    }[fallback];
    out.push(
      `| Confirmation | a person confirms ${cell(when)}, asked by the client (MCP 2026-07-28 elicitation); clients that cannot ask: ${other} |`,
    );
  }
  if (tool.external_systems.length > 0)
    out.push(`| External systems | ${tool.external_systems.join(', ')} |`);
  out.push(`| Definition SHA-256 | ${code(tool.definition_sha256)} |`, '');
  for (const note of tool.notes) out.push(`> ${note}`, '');
  out.push(
    '### Inputs',
    '',
    '| Field | Type | Required | Constraints | Description |',
    '|---|---|---|---|---|',
  );
  out.push(...fieldRows(tool.input_schema, true), '');
  const result = isNode(tool.output_schema.properties) ? tool.output_schema.properties.result : undefined;
  const resultBranch = isNode(result) ? branchesOf(result).find((b) => b.type !== 'null') : undefined;
  out.push('### Result fields', '');
  out.push("Inside the outcome envelope's `result` (null unless the status carries one).", '');
  out.push(
    '| Field | Type | Description |',
    '|---|---|---|',
    ...(resultBranch ? fieldRows(resultBranch, false) : []),
    '',
  );
  const own = tool.errors.filter((e) => !common.has(e.code));
  out.push('### Error codes', '');
  if (common.size > 0) out.push(`Besides the [codes every tool may answer](#${COMMON_ANCHOR}):`, '');
  out.push(...errorTable(own), '', '### Examples', '');
  for (const example of tool.examples) {
    out.push(`${example.title}:`, '', '```json', JSON.stringify(example.input, null, 2), '```', '');
  }
  return out.join('\n');
}

/** The Markdown tool catalog; derived from the contract only, so it changes exactly when the contract does. */
export function renderToolCatalog(source: ContractDocument): string {
  // Render from the committed (key-sorted) form, so a contract file and the running code agree.
  const document = sortKeysDeep(source) as ContractDocument;
  const firstSentence = (text: string) => /^[^.]*\./.exec(text)?.[0] ?? text;
  const out = [
    '# Tool catalog',
    '',
    `Generated from the tool contracts by \`${DOCS_COMMAND}\`; do not edit by hand.`,
    'Every call answers with the outcome envelope described in the README; this page lists what differs per tool.',
    '',
  ];
  if (document.tools.length === 0) out.push('No tools are registered.', '');
  else {
    out.push('| Tool | Kind | Version | Scopes | Summary |', '|---|---|---|---|---|');
    for (const t of document.tools) {
      const scopes = t.scopes.map(code).join(', ');
      out.push(
        `| [${headingOf(t, document)}](#${anchorOf(headingOf(t, document))}) | ${t.kind} | ${t.version} | ${scopes} | ${cell(firstSentence(t.description))} |`,
      );
    }
    out.push('');
  }
  const common = commonErrors(document);
  if (common.length > 0) {
    out.push('## Codes every tool may answer', '', 'Answered by the gateway itself, whatever the tool.', '');
    out.push(...errorTable(common), '');
  }
  const commonCodes = new Set(common.map((e) => e.code));
  return `${[...out, ...document.tools.map((t) => toolSection(t, commonCodes, headingOf(t, document)))].join('\n').trimEnd()}\n`;
}
