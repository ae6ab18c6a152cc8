/** How long a dev token lives unless --ttl says otherwise (12 h). */
export const DEFAULT_TOKEN_TTL_SECONDS = 12 * 60 * 60;
