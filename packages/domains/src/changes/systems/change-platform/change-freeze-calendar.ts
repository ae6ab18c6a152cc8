import type { Clock, SqlDatabase } from 'toolgate';
import { z } from 'zod';
import { type Environment, environmentSchema } from './change-record.ts';

const ALL_TENANTS = '*';
const DEFAULT_FREEZE_HOURS = 72;

/** Params of POST /test-api/simulate {target: 'change_platform', action: 'set_freeze'}. */
export const setFreezeParamsSchema = z.strictObject({
  starts_at: z.iso.datetime({ offset: true }).optional().describe('Start of the freeze; default now.'),
  ends_at: z.iso.datetime({ offset: true }).optional().describe('End of the freeze; default start + hours.'),
  hours: z.number().int().min(1).max(2000).default(DEFAULT_FREEZE_HOURS),
  environments: z.array(environmentSchema).min(1).max(4).default(['production']),
  reason: z.string().min(1).max(200).default('Change freeze'),
  tenant: z.string().min(1).max(100).optional().describe('Only this tenant; default every tenant.'),
});

/** A period during which the platform accepts no changes for some environments. */
export interface ChangeFreeze {
  readonly startsAt: number;
  readonly endsAt: number;
  readonly environments: readonly Environment[];
  readonly reason: string;
  /** `*` when it applies to every tenant. */
  readonly tenant: string;
}

type FreezeRow = {
  starts_at: number;
  ends_at: number;
  environments: string;
  reason: string;
  tenant: string;
};

/**
 * The platform's freeze calendar. It holds at most one freeze at a time (setting a new one
 * replaces the old), which is what the demo and the evaluation scenarios need.
 */
export class ChangeFreezeCalendar {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  async set(params: z.input<typeof setFreezeParamsSchema>): Promise<ChangeFreeze> {
    const parsed = setFreezeParamsSchema.parse(params);
    const startsAt = parsed.starts_at ? Date.parse(parsed.starts_at) : this.clock.now();
    const endsAt = parsed.ends_at ? Date.parse(parsed.ends_at) : startsAt + parsed.hours * 3_600_000;
    if (endsAt <= startsAt) throw new Error('set_freeze: ends_at must be after starts_at');
    const freeze: ChangeFreeze = {
      startsAt,
      endsAt,
      environments: parsed.environments,
      reason: parsed.reason,
      tenant: parsed.tenant ?? ALL_TENANTS,
    };
    await this.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM ext_change_freezes');
      await tx.execute(
        'INSERT INTO ext_change_freezes (id, tenant, starts_at, ends_at, environments, reason) VALUES (?, ?, ?, ?, ?, ?)',
        ['current', freeze.tenant, startsAt, endsAt, JSON.stringify(freeze.environments), freeze.reason],
      );
    });
    return freeze;
  }

  /** Removes the freeze; true when there was one. */
  async clear(): Promise<boolean> {
    return (await this.db.execute('DELETE FROM ext_change_freezes')) > 0;
  }

  /** The freeze that applies to this tenant and has not ended yet, if any. */
  async current(tenant: string): Promise<ChangeFreeze | null> {
    const rows = await this.db.query<FreezeRow>(
      'SELECT tenant, starts_at, ends_at, environments, reason FROM ext_change_freezes WHERE (tenant = ? OR tenant = ?) AND ends_at > ?',
      [tenant, ALL_TENANTS, this.clock.now()],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      startsAt: Number(row.starts_at),
      endsAt: Number(row.ends_at),
      environments: z.array(environmentSchema).parse(JSON.parse(row.environments)),
      reason: row.reason,
      tenant: row.tenant,
    };
  }
}

/** True when a change in `environment` running over [startAt, endAt) overlaps the freeze. */
export function freezeBlocks(
  freeze: ChangeFreeze,
  environment: Environment,
  startAt: number,
  endAt: number,
): boolean {
  return freeze.environments.includes(environment) && startAt < freeze.endsAt && endAt > freeze.startsAt;
}
