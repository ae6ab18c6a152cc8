import type { Command } from 'commander';
import {
  DEFAULT_RATE_LIMIT_PER_PRINCIPAL,
  DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL,
  DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL,
} from '../gateway/limit-defaults.ts';
import type { RawServeOptions } from './serve-options.ts';

/** `toolgate serve`: the gateway over Streamable HTTP (default) or stdio. The work loads only when run. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve the tools over MCP Streamable HTTP (or stdio with --stdio).')
    .option(
      '--config <file>',
      'serve the tools of this config module, not the demo (TOOLGATE_CONFIG; default ./toolgate.config.*, else the demo)',
    )
    .option('--host <host>', 'address to bind (TOOLGATE_HOST)', undefined)
    .option('--port <port>', 'port to bind, 0 for any free port (TOOLGATE_PORT, default 8787)')
    .option(
      '--data-dir <dir>',
      'SQLite database and dev signing key (TOOLGATE_DATA_DIR, default ./.toolgate)',
    )
    .option('--database-url <url>', 'PostgreSQL instead of SQLite (TOOLGATE_DATABASE_URL)')
    .option('--stdio', 'serve one client over stdin/stdout as the principal in TOOLGATE_TOKEN')
    .option(
      '--enable-test-api',
      'mount /test-api/* for tokens with scope test:control (TOOLGATE_ENABLE_TEST_API)',
    )
    .option(
      '--policy <dir>',
      'decide calls by the Cedar policies in this directory (TOOLGATE_POLICY; demo: policies/)',
    )
    .option('--no-seed', 'do not insert the demo world (TOOLGATE_SEED=0)')
    .option(
      '--local-principal-token <token>',
      'header-less HTTP requests act as this principal; loopback only (TOOLGATE_LOCAL_PRINCIPAL_TOKEN)',
    )
    .option('--jwks-url <url>', 'production: verify tokens with this JWKS (TOOLGATE_JWKS_URL)')
    .option('--issuer <iss>', 'production: required token issuer (TOOLGATE_ISSUER)')
    .option(
      '--no-require-token-type',
      "production: accept the issuer's tokens without the JWT header typ at+jwt (TOOLGATE_REQUIRE_TOKEN_TYPE=0)",
    )
    .option('--audience <url>', 'public resource URL tokens must name in aud (TOOLGATE_AUDIENCE)')
    .option('--retention-seconds <n>', 'keep operation records this long (TOOLGATE_RETENTION_SECONDS)')
    .option(
      '--audit-retention-seconds <n>',
      'keep audit entries this long, at least 86400; default 7776000, 90 days (TOOLGATE_AUDIT_RETENTION_SECONDS)',
    )
    .option(
      '--operator-confirmation-ttl-seconds <n>',
      'how long a call waits for an approver before it is rejected; default 86400 (TOOLGATE_OPERATOR_CONFIRMATION_TTL_SECONDS)',
    )
    .option('--allowed-hosts <hosts>', 'extra Host names, comma-separated (TOOLGATE_ALLOWED_HOSTS)')
    .option(
      '--rate-limit-per-principal <n>',
      `requests per second per principal, burst n, weighted by cost; 0 for none (TOOLGATE_RATE_LIMIT_PER_PRINCIPAL, default ${DEFAULT_RATE_LIMIT_PER_PRINCIPAL})`,
    )
    .option(
      '--reply-bytes-per-second-per-principal <n>',
      `answer bytes per second per principal, burst n; 0 for none (TOOLGATE_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL, default ${DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL})`,
    )
    .option(
      '--max-writes-in-flight-per-principal <n>',
      `write/request operations one principal may have executing at once (TOOLGATE_MAX_WRITES_IN_FLIGHT_PER_PRINCIPAL, default ${DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL})`,
    )
    .option(
      '--headers-timeout-ms <ms>',
      'time to send request headers (TOOLGATE_HEADERS_TIMEOUT_MS, default 10000)',
    )
    .option(
      '--request-timeout-ms <ms>',
      'time to send a whole request, body included (TOOLGATE_REQUEST_TIMEOUT_MS, default 30000)',
    )
    .option(
      '--keep-alive-timeout-ms <ms>',
      'idle keep-alive connections close after this (TOOLGATE_KEEP_ALIVE_TIMEOUT_MS, default 5000)',
    )
    .option('--max-connections <n>', 'concurrent HTTP connections (TOOLGATE_MAX_CONNECTIONS, default 1024)')
    .option(
      '--max-token-lifetime-seconds <n>',
      'refuse bearer tokens living longer (exp - iat) (TOOLGATE_MAX_TOKEN_LIFETIME_SECONDS, default 86400)',
    )
    .option(
      '--database-statement-timeout-ms <ms>',
      'PostgreSQL: longest statement or connection attempt (TOOLGATE_DATABASE_STATEMENT_TIMEOUT_MS, default 5000)',
    )
    .option(
      '--database-read-lanes <n>',
      'PostgreSQL: pipelined connections for plain reads, beside the pool; 0 for none (TOOLGATE_DATABASE_READ_LANES, default 1)',
    )
    .option(
      '--tools-page-size <n>',
      'tools per tools/list page; longer listings are paged (TOOLGATE_TOOLS_PAGE_SIZE, default 100)',
    )
    .option(
      '--tasks-page-size <n>',
      "tasks per tasks/list page of the caller's own operations (TOOLGATE_TASKS_PAGE_SIZE, default 50)",
    )
    .action(async (raw: RawServeOptions) => {
      const { resolveCommandConfig } = await import('../config/discover-config.ts');
      const config = resolveCommandConfig('serve', raw.config, { activity: 'serving' });
      const { runServe } = await import('./serve-run.ts');
      await runServe({ ...raw, config });
    });
}
