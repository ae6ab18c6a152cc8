import type { CatalogService } from './service-catalog.ts';

export interface ServiceCandidate {
  readonly service: CatalogService;
  /** 0-1; 1 means every word of the query names this service. */
  readonly score: number;
  /** Which of the service's names matched best: its id, its name or one of its aliases. */
  readonly matchedOn: string;
}

/** Scores below this are noise, not candidates. */
const MIN_SCORE = 0.3;
const FILLER_WORDS = new Set(['the', 'a', 'an', 'our', 'my', 'for', 'of', 'on', 'in', 'to']);

/**
 * Ranks catalog services against a human description ("payments API", "the checkout site").
 * Deterministic word matching tolerant of plural, prefix and one-letter typos; it never creates
 * an id, it only points at ones the catalog holds.
 */
export function resolveServices(query: string, services: readonly CatalogService[]): ServiceCandidate[] {
  const queryWords = words(query);
  if (queryWords.length === 0) return [];
  const candidates: ServiceCandidate[] = [];
  for (const service of services) {
    const names = [service.serviceId, service.name, ...service.aliases];
    let best = { score: 0, matchedOn: service.serviceId };
    for (const name of names) {
      const score =
        name.toLowerCase() === query.trim().toLowerCase() ? 1 : similarity(queryWords, words(name));
      if (score > best.score) best = { score, matchedOn: name };
    }
    if (best.score >= MIN_SCORE) {
      candidates.push({ service, score: Math.round(best.score * 100) / 100, matchedOn: best.matchedOn });
    }
  }
  return candidates.sort((a, b) => b.score - a.score || (a.service.serviceId < b.service.serviceId ? -1 : 1));
}

function similarity(query: readonly string[], name: readonly string[]): number {
  if (name.length === 0) return 0;
  let matched = 0;
  const unused = [...name];
  for (const word of query) {
    let bestIndex = -1;
    let bestScore = 0;
    unused.forEach((candidate, index) => {
      const score = wordMatch(word, candidate);
      if (score > bestScore) {
        bestScore = score;
        bestIndex = index;
      }
    });
    if (bestIndex >= 0) {
      matched += bestScore;
      unused.splice(bestIndex, 1);
    }
  }
  return matched / Math.max(query.length, name.length);
}

function wordMatch(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a))) return 0.8;
  if (a.length >= 4 && b.length >= 4 && withinOneEdit(a, b)) return 0.7;
  return 0;
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !FILLER_WORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}
