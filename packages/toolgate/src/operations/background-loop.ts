import type { Logger } from 'pino';

/**
 * Runs `work` every `intervalMs`, never overlapping itself. `wake` runs it as soon as the current
 * pass ends; `stop` waits for the pass in flight. Timers are unref'd so they never keep a process alive.
 */
export class BackgroundLoop {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  #again = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) this.#again = true;
    else this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), ms);
    this.#timer.unref();
  }

  #run(): void {
    this.#timer = null;
    this.#running = this.work()
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error, job: this.name }, 'background job failed'),
      )
      .finally(() => {
        this.#running = null;
        if (this.#stopped) return;
        const again = this.#again;
        this.#again = false;
        this.#schedule(again ? 0 : this.intervalMs);
      });
  }
}
