/** How long a dev token lives unless --ttl says otherwise (12 h). */
export const DEFAULT_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/** The longest lifetime (`exp` - `iat`) a verified token may have unless configured (24 h). */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
