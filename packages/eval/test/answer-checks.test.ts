import { describe, expect, it } from 'vitest';
import { answerProblems } from '../src/answer-checks.ts';
import type { AnswerCheck } from '../src/scenario-schema.ts';

const scope = {
  values: { fixtures: { change: { id: 'CHG-10005', starts: '2026-12-05' } } },
  key: (n: string) => n,
  now: () => Date.now(),
};
const world = { result: { total: 42.5, change_id: 'CHG-10005', state: 'pending_approval' } };
const probe = async () => world;
const check = (over: Partial<AnswerCheck>): AnswerCheck => ({ what: 'the value', ...over }) as AnswerCheck;

describe('answers held to the world', () => {
  it('reads the value from a probe after the run and finds it in the message', async () => {
    const total = check({
      what: 'the order total',
      probe: { tool: 'orders_get', args: {} },
      path: 'result.total',
    });
    expect(await answerProblems(total, 'Your total is 42.5 EUR.', scope, probe)).toEqual([]);
    expect(await answerProblems(total, 'Your total is 40 EUR.', scope, probe)).toEqual([
      'answer: the order total: it says "40", the world holds "42.5"',
    ]);
    expect(await answerProblems(total, 'I looked it up for you.', scope, probe)).toEqual([
      'answer: the order total: it states no value, the world holds "42.5"',
    ]);
  });

  it('names another id or date of the same shape, from a template value', async () => {
    const id = check({ what: 'the change id', value: '{{fixtures.change.id}}' });
    expect(await answerProblems(id, 'Created CHG-10005.', scope, probe)).toEqual([]);
    expect(await answerProblems(id, 'Created CHG-10004.', scope, probe)).toEqual([
      'answer: the change id: it says "chg-10004", the world holds "CHG-10005"',
    ]);
    const date = check({ what: 'the start date', value: '{{fixtures.change.starts}}' });
    expect(await answerProblems(date, 'It starts 2026-12-06.', scope, probe)).toEqual([
      'answer: the start date: it says "2026-12-06", the world holds "2026-12-05"',
    ]);
  });

  it('reads a status in everyday words, a negation not taken for the other value', async () => {
    const state = check({
      what: 'the change state',
      probe: { tool: 'change_get', args: {} },
      path: 'result.state',
      says: { pending_approval: ['waiting for approval', 'not approved yet'], approved: ['approved'] },
    });
    expect(await answerProblems(state, 'It is not approved yet.', scope, probe)).toEqual([]);
    expect(await answerProblems(state, 'It is approved.', scope, probe)).toEqual([
      'answer: the change state: it says "approved", the world holds "pending_approval"',
    ]);
  });

  it('holds a value the message need not state: left out it passes, another of its kind fails', async () => {
    const priority = check({
      what: 'the priority',
      value: 'high',
      says: { high: ['high priority', 'priority high'], medium: ['medium priority', 'priority medium'] },
      required: false,
    });
    expect(await answerProblems(priority, 'Filed as WI-301.', scope, probe)).toEqual([]);
    expect(await answerProblems(priority, 'Filed as WI-301, high priority.', scope, probe)).toEqual([]);
    expect(await answerProblems(priority, 'Filed as WI-301 with medium priority.', scope, probe)).toEqual([
      'answer: the priority: it says "medium priority", the world holds "high"',
    ]);
  });

  it('names a value matching `like` beside the phrases `says` lists for the right one', async () => {
    const street = check({
      what: 'the street',
      value: '12 Elm Street',
      says: { '12 Elm Street': ['12 elm street', '12 elm st'] },
      like: String.raw`\b\d+ elm (?:street|st)\b`,
      required: false,
    });
    expect(await answerProblems(street, 'It now goes to 12 Elm St.', scope, probe)).toEqual([]);
    expect(await answerProblems(street, 'It now goes to 21 Elm Street.', scope, probe)).toEqual([
      'answer: the street: it says "21 elm street", the world holds "12 Elm Street"',
    ]);
  });
});
