import { z } from 'zod';
import { ACTORS, type Principal } from './principal.ts';

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** Unicode Cc: C0 controls (NUL included), DEL and C1 controls; never part of an identity, and NUL breaks PostgreSQL text. */
const CONTROL_CHARACTER = /\p{Cc}/u;

const identityText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL_CHARACTER.test(value), { message: 'must not contain control characters' });

/** The claims toolgate reads from a verified token; anything missing or malformed is a 401. */
export const principalClaimsSchema = z.object({
  sub: identityText(200),
  tenant: identityText(100),
  actor: z.enum(ACTORS),
  scope: z
    .string()
    .max(2000)
    .refine((value) => value.split(' ').every((s) => s === '' || SCOPE_TOKEN.test(s)), {
      message: 'scope must be space-separated scope tokens',
    })
    .default(''),
});

/** Claims as a caller states them when asking for a token (scopes as a list). */
export interface TokenSubject {
  readonly sub: string;
  readonly tenant: string;
  readonly actor: Principal['actor'];
  readonly scopes: readonly string[];
}

export type ClaimsVerdict = { ok: true; principal: Principal } | { ok: false; detail: string };

export function principalFromClaims(payload: unknown): ClaimsVerdict {
  const parsed = principalClaimsSchema.safeParse(payload);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'claims'}: ${issue.message}`)
      .join('; ');
    return { ok: false, detail: `token claims are not usable (${detail})` };
  }
  const { sub, tenant, actor, scope } = parsed.data;
  return {
    ok: true,
    principal: { subject: sub, tenant, actor, scopes: new Set(scope.split(' ').filter(Boolean)) },
  };
}
