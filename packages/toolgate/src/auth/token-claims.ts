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
  /** The authorized party (OIDC) or the OAuth client the token was issued to (RFC 9068). */
  azp: identityText(200).optional(),
  client_id: identityText(200).optional(),
  /** Group memberships, as an array of names or one space-separated string; policies decide by them. */
  groups: z
    .union([
      z.array(identityText(200)).max(100),
      z
        .string()
        .max(4000)
        .refine((value) => !CONTROL_CHARACTER.test(value.replace(/ /g, '')), {
          message: 'must not contain control characters',
        }),
    ])
    .optional()
    .transform((value) => groupList(value)),
});

/** Group names from the claim (either form): trimmed, sorted, without repeats. */
function groupList(value: readonly string[] | string | undefined): string[] {
  const names = typeof value === 'string' ? value.split(/\s+/) : (value ?? []);
  return [...new Set(names.filter(Boolean))].sort();
}

/** Claims as a caller states them when asking for a token (scopes as a list). */
export interface TokenSubject {
  readonly sub: string;
  readonly tenant: string;
  readonly actor: Principal['actor'];
  readonly scopes: readonly string[];
  /** Group memberships for the `groups` claim; left out of the token when absent or empty. */
  readonly groups?: readonly string[];
  /** The client application for the `azp` claim; left out when absent. */
  readonly application?: string;
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
  const { sub, tenant, actor, scope, groups } = parsed.data;
  const application = parsed.data.azp ?? parsed.data.client_id;
  return {
    ok: true,
    principal: {
      subject: sub,
      tenant,
      actor,
      scopes: new Set(scope.split(' ').filter(Boolean)),
      groups,
      ...(application === undefined ? {} : { application }),
    },
  };
}
