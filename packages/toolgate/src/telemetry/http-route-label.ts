const FIXED_ROUTES = new Set([
  '/mcp',
  '/healthz',
  '/readyz',
  '/metrics',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
]);

/**
 * The `route` label of an HTTP request: a fixed path, the prefix of the route family that answered
 * it, or `other`. Never the raw path, so ids and probes cannot grow the label set.
 */
export function httpRouteLabel(path: string, familyPrefix: string | undefined): string {
  if (FIXED_ROUTES.has(path)) return path;
  return familyPrefix ?? 'other';
}
