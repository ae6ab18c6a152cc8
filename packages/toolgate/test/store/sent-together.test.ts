import { describe, expect, it } from 'vitest';
import { SentTogether } from '../../src/store/sent-together.ts';

/** A runner that records each statement it was asked for, and answers when the test lets it. */
function recording(options: { fail?: (requests: readonly string[]) => unknown } = {}) {
  const statements: string[][] = [];
  const release: (() => void)[] = [];
  const held = () => new Promise<void>((resolve) => release.push(resolve));
  const answer = async (requests: readonly string[]) => {
    statements.push([...requests]);
    await held();
    const error = options.fail?.(requests);
    if (error) throw error;
    return requests.map((r) => `done ${r}`);
  };
  const sent = new SentTogether<string, string>({
    key: (r) => r.split(':')[0]!,
    alone: async (r) => (await answer([r]))[0]!,
    together: answer,
  });
  /** Lets every statement out so far answer, then waits for what they set off. */
  const answerAll = async () => {
    while (release.length > 0) {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { sent, statements, answerAll };
}

describe('requests sent together', () => {
  it('sends the first at once and those that arrive while it is out together as the next', async () => {
    const { sent, statements, answerAll } = recording();
    const answers = Promise.all(['a', 'b', 'c', 'd'].map((r) => sent.run(r)));
    expect(statements).toEqual([['a']]);
    await answerAll();
    expect(await answers).toEqual(['done a', 'done b', 'done c', 'done d']);
    expect(statements).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('never puts two requests of one key in one statement', async () => {
    const { sent, statements, answerAll } = recording();
    const answers = Promise.all(['x:1', 'y:1', 'x:2', 'z:1', 'x:3'].map((r) => sent.run(r)));
    await answerAll();
    await answers;
    expect(statements).toEqual([['x:1'], ['y:1', 'x:2', 'z:1'], ['x:3']]);
  });

  it('runs a refused statement again request by request, so only the refused request fails', async () => {
    const { sent, statements, answerAll } = recording({
      fail: (requests) => (requests.includes('bad') ? new Error('value too long') : null),
    });
    const answers = Promise.allSettled(['a', 'b', 'bad', 'c'].map((r) => sent.run(r)));
    await answerAll();
    const settled = await answers;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('fails every request of a statement the database could not be reached for, without trying each', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { sent, statements, answerAll } = recording({
      fail: (requests) => (requests.length > 1 ? unreachable : null),
    });
    const answers = Promise.allSettled(['a', 'b', 'c'].map((r) => sent.run(r)));
    await answerAll();
    const settled = await answers;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(statements).toEqual([['a'], ['b', 'c']]);
  });
});
