import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const scoreSchema = z.looseObject({
  trials: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  successRate: z.number(),
  unsafeEffects: z.number().int().nonnegative(),
  unsafeClaims: z.number().int().nonnegative(),
  backendInterventions: z.number().int().nonnegative(),
});

/** The part of an evaluation's results.json a release record reads; the rest is left as it is. */
const evidenceSchema = z.looseObject({
  format: z.string().startsWith('toolgate-eval/'),
  agent: z.string(),
  labels: z.array(z.string()),
  trialsPerScenario: z.number().int().positive(),
  startedAt: z.string(),
  overall: scoreSchema,
  bySplit: z.record(z.string(), scoreSchema),
  /** Absent in results written before `toolgate eval` recorded what it measured. */
  release: z
    .looseObject({
      contractSha256: z.string(),
      scenarioSetSha256: z.string(),
      scenarioCount: z.number().int().nonnegative(),
      implementation: z.string(),
    })
    .optional(),
  isolation: z.looseObject({ isolated: z.boolean(), modulesWithoutReset: z.array(z.string()) }).optional(),
});
export type EvaluationEvidence = z.infer<typeof evidenceSchema>;
export type EvidenceScore = z.infer<typeof scoreSchema>;

/** Reads an evaluation's results: a results.json, or the directory holding one. Throws naming the file. */
export function readEvaluationEvidence(path: string): {
  readonly file: string;
  readonly evidence: EvaluationEvidence;
} {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'results.json') : path;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not a readable results.json: ${(error as Error).message}`);
  }
  const result = evidenceSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues
      .slice(0, 5)
      .map((issue) => `/${issue.path.join('/')}: ${issue.message}`)
      .join('; ');
    throw new Error(`${file} is not a toolgate eval results.json: ${problems}`);
  }
  return { file, evidence: result.data };
}
