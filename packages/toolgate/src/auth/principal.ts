export const ACTORS = ['customer', 'support_agent', 'service', 'operator'] as const;
export type Actor = (typeof ACTORS)[number];

/** Who is calling, taken from a verified token only; never from tool arguments. */
export interface Principal {
  readonly subject: string;
  readonly tenant: string;
  readonly actor: Actor;
  readonly scopes: ReadonlySet<string>;
  /** The token's `groups` claim (sorted, no repeats); empty when the token names none. Policies read it. */
  readonly groups?: readonly string[];
  /** The client application the token was issued to (`azp`, else `client_id`), when it names one. */
  readonly application?: string;
}
