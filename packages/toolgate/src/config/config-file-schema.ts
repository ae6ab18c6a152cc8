import { z } from 'zod';
import { SERVE_SETTING_LIST, SERVE_SETTINGS, type ServeSetting } from './serve-settings.ts';

const perKindRate = z.number().positive().max(SERVE_SETTINGS.rateLimitPerPrincipal.max);

/** Members of a config file that are not rows of the settings table: what is served, and structured tuning. */
const NOT_IN_THE_TABLE: readonly (readonly [string, z.ZodType])[] = [
  ['tools', z.array(z.unknown())],
  ['modules', z.array(z.unknown())],
  ['exceptions', z.array(z.unknown())],
  ['extensions', z.array(z.unknown())],
  ['operations', z.record(z.string(), z.number().int().positive())],
  [
    'rateLimit.byKind',
    z.strictObject({
      read: perKindRate.optional(),
      write: perKindRate.optional(),
      request: perKindRate.optional(),
    }),
  ],
];

/** What a setting's config-file value must be: the bounds of its row, as a number, not a string. */
function valueSchema(setting: ServeSetting): z.ZodType {
  switch (setting.type) {
    case 'port':
    case 'integer':
      return z.number().int().min(setting.min).max(setting.max);
    case 'number':
      return z.number().min(setting.min).max(setting.max);
    case 'boolean':
      return z.boolean();
    case 'url':
      return z.url({ protocol: /^https?$/ });
    case 'postgres-url':
      return z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://');
    case 'list':
      return z.array(z.string().min(1));
    case 'path':
    case 'string':
      return z.string().min(1);
  }
}

interface Branch {
  [member: string]: Branch | z.ZodType;
}

function strictOf(branch: Branch): z.ZodObject {
  const shape = Object.fromEntries(
    Object.entries(branch).map(([member, node]) => [
      member,
      (node instanceof z.ZodType ? node : strictOf(node)).optional(),
    ]),
  );
  return z.strictObject(shape);
}

/**
 * The config file's schema: every setting of SERVE_SETTINGS at its key (nested at the dots), every
 * member optional, unknown members refused.
 */
function buildConfigFileSchema(): z.ZodObject {
  const tree: Branch = {};
  const rows: (readonly [string, z.ZodType])[] = [
    ...NOT_IN_THE_TABLE.slice(0, 2),
    ...SERVE_SETTING_LIST.flatMap(([, setting]) =>
      setting.key === undefined ? [] : [[setting.key, valueSchema(setting)] as const],
    ),
    ...NOT_IN_THE_TABLE.slice(2),
  ];
  for (const [key, schema] of rows) {
    const parts = key.split('.');
    const leaf = parts.pop()!;
    let branch = tree;
    for (const part of parts) {
      branch[part] ??= {};
      branch = branch[part] as Branch;
    }
    branch[leaf] = schema;
  }
  return strictOf(tree);
}

export const configFileSchema = buildConfigFileSchema();
