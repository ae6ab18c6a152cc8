/** Path of the RFC 9728 protected-resource metadata for the /mcp resource. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

export interface ProtectedResource {
  /** The resource URL, e.g. http://127.0.0.1:8787/mcp; also the `aud` tokens must carry. */
  readonly resource: string;
  /** Issuers whose tokens this resource accepts; empty for the dev key, which has no server. */
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[];
}

/** The RFC 9728 metadata document. */
export function resourceMetadataDocument(resource: ProtectedResource): Record<string, unknown> {
  return {
    resource: resource.resource,
    authorization_servers: [...resource.authorizationServers],
    scopes_supported: [...resource.scopesSupported],
    bearer_methods_supported: ['header'],
    resource_name: 'toolgate',
  };
}

/** Where the metadata lives for a resource URL (same origin, well-known path). */
export function resourceMetadataUrl(resource: string): string {
  return new URL(RESOURCE_METADATA_PATH, resource).toString();
}

/**
 * The WWW-Authenticate value of a 401 (RFC 6750 and RFC 9728). A request without a token gets no
 * error parameter, as RFC 6750 section 3.1 asks.
 */
export function bearerChallenge(metadataUrl: string, tokenPresent: boolean): string {
  const parts = [`resource_metadata="${metadataUrl}"`];
  if (tokenPresent) parts.unshift('error="invalid_token"');
  return `Bearer ${parts.join(', ')}`;
}
