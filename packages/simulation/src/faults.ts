import { z } from 'zod';

export const FAULT_KINDS = [
  'drop_response_after_apply',
  'delay_ms',
  'timeout',
  'unavailable',
  'reject',
  'omit_field',
] as const;

/** A fault armed against one simulated external system (the body of POST /test-api/faults). */
export const faultSpecSchema = z.strictObject({
  target: z
    .string()
    .min(1)
    .max(40)
    .describe('External system: warehouse, carrier, address_validation, tracker, change_platform.'),
  fault: z.enum(FAULT_KINDS),
  times: z.number().int().min(1).max(1000).default(1).describe('How many matching calls it affects.'),
  skip: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(0)
    .describe('Matching calls to let through untouched first ("on the Nth call" is skip N-1).'),
  match: z
    .record(z.string(), z.string().max(200))
    .optional()
    .describe('Only calls whose attributes equal these (e.g. {"action": "apply_address_update"}).'),
  params: z
    .strictObject({
      ms: z.number().int().min(0).max(120_000).optional(),
      code: z.string().max(60).optional(),
      message: z.string().max(300).optional(),
      field: z
        .string()
        .regex(/^[a-zA-Z_][a-zA-Z0-9_]*(\.[a-zA-Z_][a-zA-Z0-9_]*)*$/)
        .max(60)
        .optional()
        .describe(
          'omit_field: the member the answer leaves out (an output regression), e.g. "state" or "item.state".',
        ),
    })
    .optional(),
});
export type FaultSpec = z.output<typeof faultSpecSchema>;

export interface ArmedFault extends FaultSpec {
  readonly id: number;
  remaining: number;
  /** Matching calls still to let through before the fault applies. */
  skipping: number;
}

/** What an external call looks like to the fault matcher. */
export interface ExternalCall {
  readonly action: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

/** Holds armed faults; each matching call consumes one use. */
export class FaultInjector {
  #nextId = 1;
  #armed: ArmedFault[] = [];

  arm(spec: z.input<typeof faultSpecSchema>): ArmedFault {
    const parsed = faultSpecSchema.parse(spec);
    const fault: ArmedFault = {
      ...parsed,
      id: this.#nextId++,
      remaining: parsed.times,
      skipping: parsed.skip,
    };
    this.#armed.push(fault);
    return fault;
  }

  /** Consumes and returns the first armed fault matching this call, if any. */
  take(target: string, call: ExternalCall): ArmedFault | null {
    const fault = this.#armed.find((f) => f.target === target && f.remaining > 0 && matches(f, call));
    if (!fault) return null;
    if (fault.skipping > 0) {
      fault.skipping -= 1;
      return null;
    }
    fault.remaining -= 1;
    if (fault.remaining === 0) this.#armed = this.#armed.filter((f) => f !== fault);
    return fault;
  }

  list(): readonly ArmedFault[] {
    return this.#armed;
  }

  clear(target?: string): void {
    this.#armed = target ? this.#armed.filter((f) => f.target !== target) : [];
  }
}

function matches(fault: ArmedFault, call: ExternalCall): boolean {
  if (!fault.match) return true;
  return Object.entries(fault.match).every(([k, v]) =>
    k === 'action' ? call.action === v : call.attributes?.[k] === v,
  );
}
