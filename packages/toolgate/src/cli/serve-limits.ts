import { SERVE_SETTINGS as S } from '../config/serve-settings.ts';
import { leaseSize } from '../gateway/fleet-buckets.ts';
import { DEFAULT_CLAIM_TTL_MS } from '../gateway/fleet-write-slots.ts';
import { DEFAULT_JSON_DEPTH_LIMIT, DEFAULT_JSON_KEY_LIMIT } from '../transport/json-bounds.ts';
import { DEFAULT_REPLY_LIMIT_BYTES } from '../transport/mcp-endpoint.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from '../transport/read-body.ts';
import {
  DEFAULT_REQUEST_WEIGHT,
  REQUEST_WEIGHTS,
  ROUTE_REQUEST_WEIGHT,
} from '../transport/request-metering.ts';
import type { ServeConfig } from './serve-options.ts';

/**
 * Every limit `serve` enforces, as it prints them at start: what an operator needs to know about how
 * the gateway refuses abusive callers, with the flag that changes each.
 */
export function limitsSummary(config: ServeConfig, auditRetentionSeconds: number): string {
  const { limits, connectionLimits: http } = config;
  const rate =
    limits.perPrincipal === undefined
      ? `off (${S.rateLimitPerPrincipal.flag} N)`
      : `${limits.perPrincipal} requests/s, burst ${limits.perPrincipal}; tools/list weighs ${REQUEST_WEIGHTS['tools/list']}, ` +
        `tasks, resources, prompts and discovery ${REQUEST_WEIGHTS['tasks/get']}, operator API ${ROUTE_REQUEST_WEIGHT}, ` +
        `others ${DEFAULT_REQUEST_WEIGHT} (${S.rateLimitPerPrincipal.flag}, 0 for none)`;
  const bytes =
    limits.replyBytesPerSecondPerPrincipal === undefined
      ? `off (${S.replyBytesPerSecondPerPrincipal.flag} N)`
      : `${limits.replyBytesPerSecondPerPrincipal} B/s (${S.replyBytesPerSecondPerPrincipal.flag}, 0 for none)`;
  const fleet = config.databaseUrl !== undefined && (limits.fleet ?? true);
  const lease =
    limits.perPrincipal === undefined ? '' : `leases of ${leaseSize(limits.perPrincipal)} tokens, `;
  const across = fleet
    ? `held for every gateway on this PostgreSQL database (${lease}write slots claimed for ` +
      `${DEFAULT_CLAIM_TTL_MS / 1000} s); if the database fails or answers late, each gateway falls back to its ` +
      `own limits per process, never none, and sets toolgate_fleet_limits_local to 1 (${S.fleetLimits.flag})`
    : config.databaseUrl === undefined
      ? 'per gateway process (SQLite serves one process)'
      : `per gateway process, fleet limits off: N gateways give a principal N times these`;
  const rows: [string, string][] = [
    ['across gateways', across],
    ['rate per principal', rate],
    ['reply bytes per principal', bytes],
    [
      'writes in flight per principal',
      `${limits.writesInFlightPerPrincipal} (${S.maxWritesInFlightPerPrincipal.flag})`,
    ],
    [
      'request body',
      `${DEFAULT_BODY_LIMIT_BYTES} B, ${DEFAULT_JSON_KEY_LIMIT} object keys, ${DEFAULT_JSON_DEPTH_LIMIT} levels deep`,
    ],
    ['answer per POST', `${DEFAULT_REPLY_LIMIT_BYTES} B`],
    [
      'connections',
      `${http.maxConnections}; headers ${http.headersTimeoutMs} ms, request ${http.requestTimeoutMs} ms, keep-alive ${http.keepAliveTimeoutMs} ms`,
    ],
    ['token lifetime', `at most ${config.maxTokenLifetimeSeconds} s`],
    [
      'records kept',
      `operations ${config.retentionSeconds ?? S.retentionSeconds.default} s, audit ${auditRetentionSeconds} s (${S.auditRetentionSeconds.flag})`,
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`);
  return `Limits (README "Limits"):\n${lines.join('\n')}\n`;
}
