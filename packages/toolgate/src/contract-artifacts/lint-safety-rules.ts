import { SEMVER_PATTERN } from '../contract/define-tool.ts';
import { ERROR_CATEGORIES, ERROR_CODE_PATTERN } from '../contract/error-catalog.ts';
import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { isNode } from './schema-shape.ts';

const MIN_KEY_LENGTH = 16;
const MAX_KEY_LENGTH = 128;
const SCOPE_PATTERN = /^[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)+$/;

export const idempotencyKeyRule: LintRule = {
  id: 'idempotency-key',
  severity: 'error',
  summary: 'Write and request tools require a bounded idempotency_key and publish their retention policy.',
  check(tool) {
    if (tool.kind === 'read') return [];
    const props = isNode(tool.input_schema.properties) ? tool.input_schema.properties : {};
    const key = props.idempotency_key;
    const required =
      Array.isArray(tool.input_schema.required) && tool.input_schema.required.includes('idempotency_key');
    const fix = 'Add idempotency_key: idempotencyKeySchema (16-128 characters of A-Za-z0-9._:-), required.';
    if (!isNode(key) || !required) {
      return [
        hit(
          '/input_schema/properties/idempotency_key',
          `${tool.kind} tool has no required idempotency_key`,
          fix,
        ),
      ];
    }
    const hits: RuleHit[] = [];
    const pointer = '/input_schema/properties/idempotency_key';
    const bounded =
      key.type === 'string' &&
      typeof key.minLength === 'number' &&
      key.minLength >= MIN_KEY_LENGTH &&
      typeof key.maxLength === 'number' &&
      key.maxLength <= MAX_KEY_LENGTH &&
      typeof key.pattern === 'string';
    if (!bounded) hits.push(hit(pointer, 'idempotency_key is not a 16-128 character patterned string', fix));
    if (tool.idempotency === null) {
      hits.push(
        hit(
          '/idempotency',
          `${tool.kind} tool publishes no idempotency and retention policy`,
          'Register the tool through ToolRegistry, which publishes the policy in the contract.',
        ),
      );
    }
    return hits;
  },
};

export const errorCatalogRule: LintRule = {
  id: 'error-catalog',
  severity: 'error',
  summary:
    'Every error code is UPPER_SNAKE with a known category, retryability and a description, one meaning per code.',
  check(tool, document) {
    if (tool.errors.length === 0) {
      return [
        hit(
          '/errors',
          'tool publishes no error codes',
          'Declare the codes the handler answers with (defineErrorCodes).',
        ),
      ];
    }
    const hits: RuleHit[] = [];
    tool.errors.forEach((error, i) => {
      const at = `/errors/${i}`;
      if (!ERROR_CODE_PATTERN.test(error.code))
        hits.push(
          hit(`${at}/code`, `error code ${error.code} is not UPPER_SNAKE`, 'Use a stable UPPER_SNAKE code.'),
        );
      if (!(ERROR_CATEGORIES as readonly string[]).includes(error.category)) {
        hits.push(
          hit(
            `${at}/category`,
            `error ${error.code} has unknown category ${error.category}`,
            `Use one of ${ERROR_CATEGORIES.join(', ')}.`,
          ),
        );
      }
      if (error.description.trim().length < 20) {
        hits.push(
          hit(
            `${at}/description`,
            `error ${error.code} has no useful description`,
            'Say when it happens and what the agent should do next.',
          ),
        );
      }
      const clash = document.tools
        .flatMap((t) => t.errors)
        .find(
          (e) => e.code === error.code && (e.category !== error.category || e.retryable !== error.retryable),
        );
      if (clash) {
        hits.push(
          hit(
            at,
            `error ${error.code} means different things in different tools`,
            'Keep one category and retryability per code; declare a new code for a new meaning.',
          ),
        );
      }
    });
    if (tool.kind !== 'read' && !tool.errors.some((e) => e.code === 'OUTCOME_UNKNOWN')) {
      hits.push(
        hit(
          '/errors',
          `${tool.kind} tool does not publish OUTCOME_UNKNOWN`,
          'Register the tool through ToolRegistry, which adds the gateway codes.',
        ),
      );
    }
    return hits;
  },
};
export const scopesDeclaredRule: LintRule = {
  id: 'scopes-declared',
  severity: 'error',
  summary: 'Every tool requires at least one capability scope (resource:action), never a catch-all.',
  check(tool) {
    if (tool.scopes.length === 0) {
      return [
        hit(
          '/scopes',
          'tool requires no scope',
          'Require the capability scope of its domain, e.g. orders:read.',
        ),
      ];
    }
    return tool.scopes.flatMap((scope, i) =>
      SCOPE_PATTERN.test(scope) && !/:(all|any|admin|\*)$/.test(scope)
        ? []
        : [
            hit(
              `/scopes/${i}`,
              `scope "${scope}" is not a single capability`,
              'Use one resource:action scope per capability.',
            ),
          ],
    );
  },
};

export const annotationsConsistentRule: LintRule = {
  id: 'annotations-consistent',
  severity: 'error',
  summary: 'Annotations agree with the kind and mutation, and the version and timeout are well-formed.',
  check(tool) {
    const hits: RuleHit[] = [];
    const { annotations } = tool;
    if (annotations.readOnlyHint !== (tool.kind === 'read')) {
      hits.push(
        hit(
          '/annotations/readOnlyHint',
          `readOnlyHint ${annotations.readOnlyHint} contradicts kind ${tool.kind}`,
          'Let defineTool derive the annotations.',
        ),
      );
    }
    const destructive = tool.mutation === 'update' || tool.mutation === 'delete';
    if (annotations.destructiveHint !== destructive) {
      hits.push(
        hit(
          '/annotations/destructiveHint',
          `destructiveHint ${annotations.destructiveHint} contradicts mutation ${tool.mutation}`,
          'Let defineTool derive the annotations.',
        ),
      );
    }
    if ((tool.kind === 'read') !== (tool.mutation === null)) {
      hits.push(
        hit(
          '/mutation',
          `kind ${tool.kind} with mutation ${tool.mutation}`,
          'Reads have no mutation; writes and requests declare one.',
        ),
      );
    }
    if (!SEMVER_PATTERN.test(tool.version))
      hits.push(hit('/version', `version ${tool.version} is not MAJOR.MINOR.PATCH`, 'Use semver.'));
    if (!(tool.timeout_ms > 0 && tool.timeout_ms <= 120_000)) {
      hits.push(
        hit(
          '/timeout_ms',
          `timeout ${tool.timeout_ms} ms is outside (0, 120000]`,
          'Set a timeout the caller can wait for.',
        ),
      );
    }
    return hits;
  },
};
export const safetyRules: readonly LintRule[] = [
  idempotencyKeyRule,
  errorCatalogRule,
  scopesDeclaredRule,
  annotationsConsistentRule,
];
