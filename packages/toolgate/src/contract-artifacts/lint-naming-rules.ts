import { TOOL_NAME_PATTERN } from '../contract/define-tool.ts';
import { hit, type LintRule } from './lint-rule.ts';

/** The portable tool-name rule shared by MCP and the OpenAI and Anthropic function-calling APIs. */
const PORTABLE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A first segment that is a verb or a placeholder says how, not which domain: `get_order`, `tool_run`. */
const NON_NAMESPACES = new Set([
  'get',
  'set',
  'create',
  'update',
  'delete',
  'list',
  'search',
  'find',
  'fetch',
  'post',
  'put',
  'patch',
  'do',
  'run',
  'execute',
  'call',
  'invoke',
  'process',
  'handle',
  'insert',
  'tool',
  'tools',
  'api',
  'action',
]);

/** Suffix words that name a variant without saying how it differs (seed 003: `change.create_full`). */
const VARIANT_WORDS = new Set([
  'full',
  'advanced',
  'extended',
  'simple',
  'basic',
  'new',
  'old',
  'legacy',
  'plus',
  'ex',
  'alt',
  'enhanced',
  'improved',
  'better',
  'lite',
  'pro',
]);
/** Words too vague to tell two tools apart when they are the only difference between two names. */
const VAGUE_WORDS = new Set([
  ...VARIANT_WORDS,
  'all',
  'more',
  'extra',
  'details',
  'detail',
  'info',
  'data',
  'custom',
  'generic',
  'default',
  'main',
  'other',
  'quick',
  'raw',
  'v1',
]);
const VERSION_WORD = /^v\d+$/;

const segments = (name: string) => name.split(/[_.-]/).filter(Boolean);

export const namePatternRule: LintRule = {
  id: 'name-pattern',
  severity: 'error',
  summary: 'Tool names are snake_case, at most 64 characters, portable across MCP, OpenAI and Anthropic.',
  check(tool) {
    if (PORTABLE_NAME.test(tool.name) && TOOL_NAME_PATTERN.test(tool.name)) return [];
    return [
      hit(
        '/name',
        `name "${tool.name}" is not namespace_action snake_case of at most 64 characters`,
        'Rename to lowercase snake_case such as orders_get (letters, digits, underscores; at most 64).',
      ),
    ];
  },
};

export const nameNamespaceRule: LintRule = {
  id: 'name-namespace',
  severity: 'error',
  summary: 'Tool names start with their domain namespace, not a verb or a placeholder.',
  check(tool) {
    const [first, ...rest] = segments(tool.name);
    if (first && rest.length > 0 && !NON_NAMESPACES.has(first.toLowerCase())) return [];
    const found =
      first === undefined ? 'no namespace' : rest.length === 0 ? 'a single word' : `"${first}" first`;
    return [
      hit(
        '/name',
        `name "${tool.name}" has ${found}; agents pick tools from many servers by namespace`,
        'Put the domain first and the action after it, e.g. orders_get or change_create.',
      ),
    ];
  },
};

export const nameUniqueRule: LintRule = {
  id: 'name-unique',
  severity: 'error',
  summary:
    'Every tool name appears once, also ignoring case; only two majors of one name are served side by side.',
  check(tool, document) {
    // Two majors of exactly this name are versions of one tool (docs/versions.md), not twins.
    const twins = document.tools.filter(
      (t) =>
        t.name.toLowerCase() === tool.name.toLowerCase() &&
        (t.name !== tool.name || Number.parseInt(t.version, 10) === Number.parseInt(tool.version, 10)),
    );
    if (twins.length < 2) return [];
    return [
      hit(
        '/name',
        `${twins.length} tools are named "${tool.name}" (ignoring case)`,
        'Give each tool its own name that says what distinguishes it.',
      ),
    ];
  },
};

function differByOneVagueWord(a: string[], b: string[]): string | null {
  const [longer, shorter] = a.length >= b.length ? [a, b] : [b, a];
  if (longer.length - shorter.length === 1) {
    for (let i = 0; i < longer.length; i++) {
      const without = [...longer.slice(0, i), ...longer.slice(i + 1)];
      if (without.join('_') === shorter.join('_') && VAGUE_WORDS.has(longer[i]!)) return longer[i]!;
    }
  }
  if (longer.length === shorter.length) {
    const differing = longer.map((w, i) => [w, shorter[i]!] as const).filter(([x, y]) => x !== y);
    if (differing.length === 1 && differing.some(([x, y]) => VAGUE_WORDS.has(x) || VAGUE_WORDS.has(y))) {
      return differing[0]!.join('/');
    }
  }
  return null;
}

export const nameNearDuplicateRule: LintRule = {
  id: 'name-near-duplicate',
  severity: 'error',
  summary: 'No version or variant suffixes (_v2, _full, _advanced) and no names differing by one vague word.',
  check(tool, document) {
    const words = segments(tool.name);
    const hits = [];
    const variant = words.slice(1).find((w) => VARIANT_WORDS.has(w) || VERSION_WORD.test(w));
    if (variant) {
      hits.push(
        hit(
          '/name',
          `name "${tool.name}" carries the variant word "${variant}", which does not say what differs`,
          VERSION_WORD.test(variant)
            ? 'Keep the name and bump the contract version; run old and new contracts side by side during migration.'
            : 'Name the real distinction (change_create_emergency, not change_create_full) or merge the tools.',
        ),
      );
    }
    for (const other of document.tools) {
      if (other.name === tool.name) continue;
      const word = differByOneVagueWord(words, segments(other.name));
      if (word && !variant) {
        hits.push(
          hit(
            '/name',
            `"${tool.name}" and "${other.name}" differ only by the vague word "${word}"`,
            'Rename one so the name states the difference in inputs, authority or outcome, or merge them.',
          ),
        );
      }
    }
    return hits;
  },
};

export const namingRules: readonly LintRule[] = [
  namePatternRule,
  nameNamespaceRule,
  nameUniqueRule,
  nameNearDuplicateRule,
];
