import { messageProse } from './claim-reader.ts';
import type { AnswerCheck } from './scenario-schema.ts';
import type { Prober } from './state-checks.ts';
import { lookupPath, renderTemplates, type TemplateScope } from './template.ts';

/**
 * What a correct answer states, held against the final message: the value is taken from the world
 * after the run (a probe's answer at `path`, or a template over the fixtures), and the message must
 * state it, in its own words (`says`: per world value, the phrases that state it) or as written (an
 * id, an amount, a date). A message stating another value fails with both: the one it gave and the
 * one the world holds. Empty when the message states it.
 */
export async function answerProblems(
  check: AnswerCheck,
  answer: string,
  scope: TemplateScope,
  probe: Prober,
): Promise<string[]> {
  const rendered = renderTemplates(check, scope) as AnswerCheck;
  let held: unknown = rendered.value;
  if (rendered.probe) {
    const read = await probe(rendered.probe.tool, rendered.probe.args, rendered.probe.principal);
    held = rendered.path ? lookupPath(read, rendered.path) : read;
  }
  if (held === undefined || held === null || typeof held === 'object')
    return [`answer: ${rendered.what}: the world holds no value to check (${JSON.stringify(held ?? null)})`];
  return valueProblems(rendered, String(held), answer);
}

/**
 * The final message held to one value the world holds (`truth`): it must state it (unless the check is
 * `required: false`) and state no other value of its kind. Empty when it does.
 */
export function valueProblems(
  check: Pick<AnswerCheck, 'what' | 'says' | 'like' | 'required'>,
  truth: string,
  answer: string,
): string[] {
  const text = normalize(messageProse(answer));
  const phrases = (value: string) => (check.says?.[value] ?? [value]).map(normalize);
  const right = phrases(truth).filter((p) => p.length > 0 && text.includes(p));
  // What is left once the right phrases are taken out, so "not shipped" is not read as "shipped".
  let rest = text;
  for (const p of [...right].sort((a, b) => b.length - a.length)) rest = rest.split(p).join(' ');
  const given = otherValues(check, truth, rest);
  if (given.length === 0 && (right.length > 0 || check.required === false)) return [];
  const says =
    given.length > 0 ? `it says ${given.map((g) => JSON.stringify(g)).join(', ')}` : 'it states no value';
  return [`answer: ${check.what}: ${says}, the world holds ${JSON.stringify(truth)}`];
}

/**
 * Values of the same kind the message states instead: other `says` phrases, and tokens matching `like`
 * (without `says`, tokens shaped like the value), in what is left once the right phrases are out.
 */
function otherValues(check: Pick<AnswerCheck, 'says' | 'like'>, truth: string, text: string): string[] {
  const phrased = Object.entries(check.says ?? {})
    .filter(([value]) => value !== truth)
    .flatMap(([, words]) => words.map(normalize).filter((w) => w.length > 0 && text.includes(w)));
  const shape = check.like ? new RegExp(check.like, 'gi') : check.says ? null : shapeOf(truth);
  const shaped = shape ? [...text.matchAll(shape)].map((m) => m[0]) : [];
  return [...new Set([...phrased, ...shaped])].filter((v) => v !== normalize(truth));
}

/** A pattern for values shaped like this one: an id of the same prefix, a number, an ISO date. */
function shapeOf(value: string): RegExp | null {
  const id = /^([a-z]+)[-_]/i.exec(value);
  if (id) return new RegExp(`\\b${id[1]!.toLowerCase()}[-_][\\w-]+`, 'g');
  if (/^\d{4}-\d\d-\d\d/.test(value)) return /\b\d{4}-\d\d-\d\d(?:t[\d:.]+z?)?/g;
  if (/^-?\d+(?:\.\d+)?$/.test(value)) return /-?\b\d+(?:[.,]\d+)?\b/g;
  return null;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
}
