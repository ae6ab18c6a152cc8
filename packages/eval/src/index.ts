// The evaluation harness's one entry: the CLI reaches the harness only through a dynamic import of
// this file, so a toolgate without the harness (and its model SDKs) still runs every other command.
export { adversarialAgent } from './agents/adversarial-agent.ts';
export type { EvalAgent } from './agents/eval-agent.ts';
export { llmAgent } from './agents/llm-agent.ts';
export { languageModel } from './agents/llm-model.ts';
export { parseModelSpec } from './agents/llm-providers.ts';
export { referenceAgent } from './agents/reference-agent.ts';
export { runEvaluation } from './evaluation.ts';
export { InProcessWorld } from './in-process-world.ts';
export { progressBar } from './progress-bar.ts';
export { readEvaluationEvidence } from './release-evidence.ts';
export { releaseFacts } from './release-facts.ts';
export {
  type ReleaseInput,
  releaseRecord,
  releaseRefusals,
  serializeReleaseRecord,
} from './release-record.ts';
export { type Comparison, compareRuns, type PriorResults, readPriorResults } from './report/comparison.ts';
export type { VersionScore } from './report/version-comparison.ts';
export { writeReports } from './report/write-reports.ts';
export { ScenarioLoadError } from './scenario-loader.ts';
export { selectScenarios } from './scenario-selection.ts';
export { type SecondOpinionJudge, secondOpinionJudge } from './second-opinion.ts';
export { isolationWarning } from './trial-isolation.ts';
