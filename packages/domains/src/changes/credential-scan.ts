/** One place in the request that looks like it holds a secret. */
export interface CredentialFinding {
  readonly field: string;
  /** What it looks like; never the matched text itself. */
  readonly kind: string;
}

/**
 * Shapes of secrets people paste into change plans. Deliberately about assignments and
 * well-known key formats, so that prose such as "rotate the database password" passes.
 */
const SECRET_SHAPES: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'a password assignment', pattern: /\b(?:pass(?:word|wd)?|pwd)\s*[:=]\s*\S+/i },
  {
    kind: 'a secret or API key assignment',
    pattern: /\b(?:client[_-]?secret|secret(?:[_-]?key)?|api[_-]?key|access[_-]?key)\s*[:=]\s*\S{6,}/i,
  },
  { kind: 'a token assignment', pattern: /\b(?:auth[_-]?|access[_-]?|api[_-]?)?token\s*[:=]\s*\S{8,}/i },
  { kind: 'a bearer token', pattern: /\bbearer\s+[A-Za-z0-9._~+/-]{16,}/i },
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'a private key block', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { kind: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { kind: 'an API secret key', pattern: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { kind: 'a connection string with a password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]+@/i },
];

/** Every field whose text looks like it contains a credential, with the first shape it matched. */
export function findCredentials(fields: Readonly<Record<string, string>>): CredentialFinding[] {
  const findings: CredentialFinding[] = [];
  for (const [field, text] of Object.entries(fields)) {
    const shape = SECRET_SHAPES.find((s) => s.pattern.test(text));
    if (shape) findings.push({ field, kind: shape.kind });
  }
  return findings;
}
