/**
 * Wakes deliveries in this process that wait for an operation another delivery is executing, the
 * moment it settles, so same-process duplicates answer without polling. Deliveries in other
 * processes still find out by polling the store.
 */
export class SettleSignal {
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Resolves when `operationId` settles in this process, after `ms`, or when `signal` aborts. */
  wait(operationId: string, ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(operationId);
      if (!waiters) {
        waiters = new Set();
        this.#waiters.set(operationId, waiters);
      }
      const set = waiters;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.#waiters.get(operationId) === set) this.#waiters.delete(operationId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  settled(operationId: string): void {
    const waiters = this.#waiters.get(operationId);
    if (!waiters) return;
    this.#waiters.delete(operationId);
    for (const wake of waiters) wake();
  }
}
