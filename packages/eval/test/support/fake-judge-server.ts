import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One question the fake judge was asked: the system prompt and the user message. */
export interface JudgeQuestion {
  readonly system: string;
  readonly prompt: string;
}

export interface FakeJudgeServer {
  readonly baseUrl: string;
  readonly questions: readonly JudgeQuestion[];
  close(): Promise<void>;
}

export const JUDGE_USAGE = { prompt_tokens: 40, completion_tokens: 9 } as const;

/**
 * An OpenAI-compatible chat completions endpoint standing in for a judge model: `answer` scripts
 * its reply to each question. Every question is kept, so a test can read what the judge was shown.
 */
export async function startFakeJudge(answer: (question: JudgeQuestion) => string): Promise<FakeJudgeServer> {
  const questions: JudgeQuestion[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const { messages } = JSON.parse(body) as { messages: { role: string; content: unknown }[] };
      const text = (role: string) =>
        messages
          .filter((m) => m.role === role)
          .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
          .join('\n');
      const question = { system: text('system'), prompt: text('user') };
      questions.push(question);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-judge-${questions.length}`,
          object: 'chat.completion',
          created: 0,
          model: 'fake-judge',
          choices: [
            { index: 0, message: { role: 'assistant', content: answer(question) }, finish_reason: 'stop' },
          ],
          usage: { ...JUDGE_USAGE, total_tokens: JUDGE_USAGE.prompt_tokens + JUDGE_USAGE.completion_tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    questions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
