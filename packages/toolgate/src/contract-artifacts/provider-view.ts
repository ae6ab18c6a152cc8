import type { JsonSchema } from '../contract/json-schema.ts';
import type { SchemaNode } from './schema-shape.ts';
import { walkSchema } from './schema-walk.ts';

/** The providers whose function calling takes a narrower schema dialect than the one toolgate lists. */
export const PROVIDER_NAMES = ['openai-strict', 'anthropic', 'gemini'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** One keyword the view took out of a node, and the words that carry it in the node's description. */
export interface MovedKeyword {
  readonly pointer: string;
  readonly keyword: string;
  /** Empty when nothing needs saying (a closed object's `additionalProperties: false` for Gemini). */
  readonly words: string;
}

export interface ProviderView {
  readonly schema: JsonSchema;
  readonly moved: readonly MovedKeyword[];
}

/**
 * What a keyword becomes in a provider's view: `null` keeps it (the provider takes it, or the view cannot
 * carry it: the profile then names it), otherwise the words that say it and keywords that replace it.
 */
type Adapt = (value: unknown, node: SchemaNode) => { words: string; replace?: SchemaNode } | null;

const plain = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const say =
  (words: (value: unknown) => string): Adapt =>
  (value) => ({ words: words(value) });

const count = (n: unknown, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const LENGTH: Record<string, Adapt> = {
  minLength: say((n) => `at least ${count(n, 'character')}`),
  maxLength: say((n) => `at most ${count(n, 'character')}`),
};
const NUMBER: Record<string, Adapt> = {
  minimum: say((n) => `at least ${n}`),
  maximum: say((n) => `at most ${n}`),
  exclusiveMinimum: say((n) => `more than ${n}`),
  exclusiveMaximum: say((n) => `less than ${n}`),
  multipleOf: say((n) => `a multiple of ${n}`),
};
const formatUnless =
  (known: ReadonlySet<string>): Adapt =>
  (value) =>
    typeof value === 'string' && known.has(value) ? null : { words: `format ${plain(value)}` };

/** The string formats OpenAI's Structured Outputs list for strict mode. */
export const OPENAI_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** The string formats Anthropic's structured outputs list. */
export const ANTHROPIC_FORMATS: ReadonlySet<string> = new Set([...OPENAI_FORMATS, 'uri']);

/**
 * Per provider, the keywords it refuses that only narrow what a value may be: the view states them in
 * words and leaves them out, and the gateway, which validates every call against the full schema, still
 * refuses a value that breaks them (with a field error the model can act on). Keywords that shape the
 * input (branches, references, dependent schemas) are not here: no words carry them, and the profile
 * names them.
 */
const ADAPTATIONS: Readonly<Record<ProviderName, Readonly<Record<string, Adapt>>>> = {
  'openai-strict': {
    ...LENGTH,
    default: say((value) => `default ${plain(value)}`),
    format: formatUnless(OPENAI_FORMATS),
    minProperties: say((n) => `at least ${count(n, 'entry').replace(/ys$/, 'ies')}`),
    maxProperties: say((n) => `at most ${count(n, 'entry').replace(/ys$/, 'ies')}`),
    uniqueItems: (value) => (value === true ? { words: 'no item twice' } : { words: '' }),
  },
  anthropic: {
    ...LENGTH,
    ...NUMBER,
    maxItems: say((n) => `at most ${count(n, 'item')}`),
    minItems: (value) => (value === 0 || value === 1 ? null : { words: `at least ${count(value, 'item')}` }),
    format: formatUnless(ANTHROPIC_FORMATS),
  },
  gemini: {
    // Closedness is the gateway's to enforce; an object schema as additionalProperties is not carried.
    additionalProperties: (value) => (value === false ? { words: '' } : null),
    const: (value) =>
      typeof value === 'string'
        ? { words: '', replace: { enum: [value] } }
        : { words: `exactly ${JSON.stringify(value)}` },
    exclusiveMinimum: NUMBER.exclusiveMinimum!,
    exclusiveMaximum: NUMBER.exclusiveMaximum!,
    multipleOf: NUMBER.multipleOf!,
    uniqueItems: (value) => (value === true ? { words: 'no item twice' } : { words: '' }),
    $schema: () => ({ words: '' }),
    type: (value) => {
      if (!Array.isArray(value)) return null;
      const named = value.filter((t) => t !== 'null');
      return named.length === 1 && named.length < value.length
        ? { words: '', replace: { type: named[0], nullable: true } }
        : null;
    },
    enum: (value) =>
      Array.isArray(value) && value.some((v) => typeof v !== 'string')
        ? { words: `one of ${value.map((v) => JSON.stringify(v)).join(', ')}` }
        : null,
  },
};

/**
 * A tool's input schema as `provider` accepts it: what it refuses but that only narrows a value is said
 * in the field's description instead (`at most 200 characters`), with nothing else changed. An agent
 * framework hands the provider this view; the gateway still checks every call against the full schema,
 * which stays the contract. What the view cannot carry is left as it is, for the lint profile to name.
 */
export function providerInputSchema(provider: ProviderName, schema: JsonSchema): ProviderView {
  const adaptations = ADAPTATIONS[provider];
  const view = structuredClone(schema) as SchemaNode;
  const moved: MovedKeyword[] = [];
  walkSchema(view, '', (at) => {
    const words: string[] = [];
    for (const [keyword, adapt] of Object.entries(adaptations)) {
      if (!(keyword in at.node)) continue;
      const adapted = adapt(at.node[keyword], at.node);
      if (adapted === null) continue;
      delete at.node[keyword];
      Object.assign(at.node, adapted.replace);
      moved.push({ pointer: `${at.pointer}/${keyword}`, keyword, words: adapted.words });
      if (adapted.words !== '') words.push(adapted.words);
    }
    if (words.length === 0) return;
    const said = words.join(', ');
    const { description } = at.node;
    at.node.description =
      typeof description === 'string' && description !== ''
        ? `${description} (${said})`
        : `${said[0]!.toUpperCase()}${said.slice(1)}.`;
  });
  return { schema: view as JsonSchema, moved };
}

/** Whether a name is one of the providers a view is made for. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}
