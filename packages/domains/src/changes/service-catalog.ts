import type { SqlDatabase } from 'toolgate';
import { z } from 'zod';
import type { WindowRule } from './maintenance-windows.ts';
import type { Environment } from './systems/change-platform/change-record.ts';

export const CRITICALITIES = ['low', 'medium', 'high', 'critical'] as const;
export const criticalitySchema = z.enum(CRITICALITIES);
export type Criticality = z.infer<typeof criticalitySchema>;

export const serviceStatusSchema = z.enum(['active', 'retired']);

/** One entry of a tenant's service catalog. */
export interface CatalogService {
  readonly tenant: string;
  readonly serviceId: string;
  readonly name: string;
  /** Other names people use for it ("payments service"), for cmdb_service_resolve. */
  readonly aliases: readonly string[];
  readonly ownerGroup: string;
  readonly criticality: Criticality;
  readonly status: z.infer<typeof serviceStatusSchema>;
}

export interface ServiceWindows {
  readonly serviceId: string;
  readonly environment: Environment;
  readonly rules: readonly WindowRule[];
}

/** The service catalog (CMDB) and maintenance windows, per tenant. */
export class ServiceCatalog {
  constructor(private readonly db: SqlDatabase) {}

  async find(tenant: string, serviceId: string): Promise<CatalogService | null> {
    const rows = await this.db.query('SELECT * FROM changes_services WHERE tenant = ? AND service_id = ?', [
      tenant,
      serviceId,
    ]);
    return rows[0] ? toService(rows[0]) : null;
  }

  /** The whole catalog of a tenant; catalogs are small (tens of services), so resolution scores in memory. */
  async list(tenant: string): Promise<CatalogService[]> {
    // CAST keeps SQLite (STAT4) from re-preparing this ordered statement on every call.
    const rows = await this.db.query(
      'SELECT * FROM changes_services WHERE tenant = CAST(? AS TEXT) ORDER BY service_id',
      [tenant],
    );
    return rows.map(toService);
  }

  async windows(tenant: string, serviceId: string, environment: Environment): Promise<WindowRule[]> {
    // CAST keeps SQLite (STAT4) from re-preparing this ordered statement on every call.
    const rows = await this.db.query<{ weekday: number; start_minute: number; length_minutes: number }>(
      `SELECT weekday, start_minute, length_minutes FROM changes_maintenance_windows
       WHERE tenant = CAST(? AS TEXT) AND service_id = CAST(? AS TEXT) AND environment = CAST(? AS TEXT)
       ORDER BY weekday, start_minute`,
      [tenant, serviceId, environment],
    );
    return rows.map((r) => ({
      weekday: Number(r.weekday),
      startMinute: Number(r.start_minute),
      lengthMinutes: Number(r.length_minutes),
    }));
  }

  async add(service: CatalogService, windows: readonly Omit<ServiceWindows, 'serviceId'>[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(
        `INSERT INTO changes_services (tenant, service_id, name, aliases, owner_group, criticality, status)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          service.tenant,
          service.serviceId,
          service.name,
          JSON.stringify(service.aliases),
          service.ownerGroup,
          service.criticality,
          service.status,
        ],
      );
      for (const { environment, rules } of windows) {
        for (const rule of rules) {
          await tx.execute(
            `INSERT INTO changes_maintenance_windows
               (tenant, service_id, environment, weekday, start_minute, length_minutes) VALUES (?, ?, ?, ?, ?, ?)`,
            [
              service.tenant,
              service.serviceId,
              environment,
              rule.weekday,
              rule.startMinute,
              rule.lengthMinutes,
            ],
          );
        }
      }
    });
  }

  async clear(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM changes_maintenance_windows');
      await tx.execute('DELETE FROM changes_services');
    });
  }
}

function toService(row: Record<string, unknown>): CatalogService {
  return {
    tenant: String(row.tenant),
    serviceId: String(row.service_id),
    name: String(row.name),
    aliases: z.array(z.string()).parse(JSON.parse(String(row.aliases))),
    ownerGroup: String(row.owner_group),
    criticality: criticalitySchema.parse(row.criticality),
    status: serviceStatusSchema.parse(row.status),
  };
}
