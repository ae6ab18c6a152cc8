/** Time as the domains see it; tests and the evaluation harness may shift it. */
export interface Clock {
  now(): number;
}

/** Real time: what a served gateway runs on unless its configuration gives another clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock offset from real time by a settable amount. */
export class ShiftableClock implements Clock {
  #offsetMs = 0;
  now(): number {
    return Date.now() + this.#offsetMs;
  }
  shift(ms: number): void {
    this.#offsetMs += ms;
  }
  reset(): void {
    this.#offsetMs = 0;
  }
}
