import { isStoreUnavailable } from './store-unavailable.ts';

/** How requests of one kind run: alone, or several as one statement. */
export interface TogetherRunner<Request, Answer> {
  /** What two requests of one statement must not share (the second waits for the next statement). */
  key(request: Request): string;
  alone(request: Request): Promise<Answer>;
  /** Several requests with distinct keys as one statement; an answer for each, in order. */
  together(requests: readonly Request[]): Promise<Answer[]>;
}

interface Waiting<Request, Answer> {
  readonly request: Request;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/**
 * Requests that go to the database one statement at a time: one goes out at once when none is out, and
 * those that arrive while one is out go together as the next statement. On a small machine a statement's
 * round trip (a write that wakes a backend) and its commit (a wait for the WAL flush) cost more than the
 * work in it, so under load this spares both for all but one request of each statement, and when
 * requests are few, none waits. A statement that fails for a reason other than an unreachable database
 * runs again request by request, so a request the database refuses fails alone and the others go on.
 */
export class SentTogether<Request, Answer> {
  readonly #runner: TogetherRunner<Request, Answer>;
  #waiting: Waiting<Request, Answer>[] = [];
  #out = false;

  constructor(runner: TogetherRunner<Request, Answer>) {
    this.#runner = runner;
  }

  run(request: Request): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#waiting.push({ request, resolve, reject });
      if (!this.#out) this.#send();
    });
  }

  #send(): void {
    const keys = new Set<string>();
    const next: Waiting<Request, Answer>[] = [];
    const later: Waiting<Request, Answer>[] = [];
    for (const waiting of this.#waiting) {
      const key = this.#runner.key(waiting.request);
      if (keys.has(key)) later.push(waiting);
      else {
        keys.add(key);
        next.push(waiting);
      }
    }
    this.#waiting = later;
    if (next.length === 0) return;
    this.#out = true;
    const done = () => {
      this.#out = false;
      if (this.#waiting.length > 0) this.#send();
    };
    const sent = next.length === 1 ? this.#alone(next[0]!) : this.#together(next);
    sent.then(done, done);
  }

  async #alone(waiting: Waiting<Request, Answer>): Promise<void> {
    try {
      waiting.resolve(await this.#runner.alone(waiting.request));
    } catch (error) {
      waiting.reject(error);
    }
  }

  async #together(next: readonly Waiting<Request, Answer>[]): Promise<void> {
    let answers: Answer[];
    try {
      answers = await this.#runner.together(next.map((w) => w.request));
    } catch (error) {
      if (isStoreUnavailable(error)) {
        for (const waiting of next) waiting.reject(error);
        return;
      }
      await Promise.all(next.map((waiting) => this.#alone(waiting)));
      return;
    }
    next.forEach((waiting, i) => {
      waiting.resolve(answers[i]!);
    });
  }
}
