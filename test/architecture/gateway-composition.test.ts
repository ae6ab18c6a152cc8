import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const GATEWAY = join(import.meta.dirname, '../../packages/toolgate/src/gateway');
const read = (file: string) => readFileSync(join(GATEWAY, file), 'utf8');

/** The modules whose work is building an envelope or deciding a code: a layer's, never the composition's. */
const ENVELOPE_WORK = [
  'src/contract/envelope-builder.ts',
  'src/contract/error-catalog.ts',
  'src/operations/operation-envelopes.ts',
  'src/store/store-unavailable.ts',
];

/** What in a source text builds an envelope itself: an import of envelope work, a builder call, a code. */
function envelopeWorkIn(text: string): string[] {
  const imported = [...text.matchAll(/from\s+'((?:\.\.?\/)+[^']+)'/g)].map((m) => m[1]!);
  const found = imported
    .filter((specifier) =>
      ENVELOPE_WORK.some((module) => module.endsWith(specifier.replace(/^(?:\.\.?\/)+/, ''))),
    )
    .map((specifier) => `imports ${specifier}`);
  for (const m of text.matchAll(/\b(buildEnvelope|envelopeFrom)\s*\(/g)) found.push(`calls ${m[1]}`);
  for (const m of text.matchAll(/\b(code|status|category):\s*'([^']+)'/g))
    found.push(`writes ${m[1]} ${m[2]}`);
  return found;
}

/** Layers named by number instead of by name ("3. Authorization", "Layer 5", "Layers 6-7", "4b."). */
function numberedLayersIn(text: string): string[] {
  return [...text.matchAll(/\/\/\s*\d+[a-z]?(?:-\d+)?\.\s|\bLayers? \d/g)].map((m) => m[0].trim());
}

/** The files of src/gateway a source text imports. */
const siblingsImportedBy = (text: string) => [...text.matchAll(/from\s+'\.\/([^']+)'/g)].map((m) => m[1]!);

const layerFiles = readdirSync(GATEWAY).filter((file) => file.endsWith('-layer.ts'));
/** `rate-limit-layer.ts` is "the rate-limit layer". */
const layerName = (file: string) => file.replace(/-layer\.ts$/, '');

/**
 * The composition: gateway.ts orders the layers up to the input, and keyed-path.ts the steps after it
 * (policy, confirmation, the key's lookup and reservation, execution, settlement).
 */
const COMPOSITION = ['gateway.ts', 'keyed-path.ts'];

describe('gateway.ts and keyed-path.ts compose the layers and answer nothing themselves', () => {
  const composed = COMPOSITION.map(read).join('\n');

  test('they build no envelope: each refusal comes from the layer that decides it', () => {
    for (const file of COMPOSITION) expect(envelopeWorkIn(read(file)), file).toEqual([]);
  });

  test('they use every layer and name each where it runs', () => {
    expect(layerFiles.length).toBeGreaterThanOrEqual(11);
    // Directly, or through the module that applies it (the output layer's verdict becomes the envelope
    // in execution-outcome.ts).
    const imported = siblingsImportedBy(composed);
    const reached = new Set([...imported, ...imported.flatMap((file) => siblingsImportedBy(read(file)))]);
    for (const file of layerFiles) {
      expect([...reached], file).toContain(file);
      expect(composed, file).toContain(`The ${layerName(file)} layer`);
    }
  });

  test('each layer file calls itself by the same name, and no layer is numbered', () => {
    for (const file of layerFiles) expect(read(file), file).toContain(`The ${layerName(file)} layer`);
    for (const file of readdirSync(GATEWAY).filter((f) => f.endsWith('.ts'))) {
      expect(numberedLayersIn(read(file)), file).toEqual([]);
    }
  });

  test('the checks see envelope work and numbers where they are', () => {
    const composedByHand = `import { buildEnvelope } from './envelope-builder.ts';
      import { isStoreUnavailable } from '../store/store-unavailable.ts';
      // 3. Authorization: the tool's scopes.
      return buildEnvelope(tool, { status: 'failed', code: 'FORBIDDEN' });`;
    expect(envelopeWorkIn(composedByHand)).toEqual([
      'imports ./envelope-builder.ts',
      'imports ../store/store-unavailable.ts',
      'calls buildEnvelope',
      'writes status failed',
      'writes code FORBIDDEN',
    ]);
    expect(numberedLayersIn(`${composedByHand}\n/** Layers 6-7. */\n// 4b. Consent`)).toEqual([
      '// 3.',
      'Layers 6',
      '// 4b.',
    ]);
  });
});
