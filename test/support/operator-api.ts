import type { TestGateway, TokenSubject } from 'toolgate/testing';

/** An answer of the operator API: its status and JSON body. */
export interface OperatorAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
  readonly body: Record<string, any>;
}

/** Calls the operator API of a test gateway as `who`, sending `body` as JSON when given. */
export function operatorApi(gateway: () => TestGateway) {
  return async (who: TokenSubject, method: string, path: string, body?: unknown): Promise<OperatorAnswer> => {
    const gw = gateway();
    const response = await fetch(new URL(path, gw.origin), {
      method,
      headers: { authorization: `Bearer ${await gw.tokenFor(who)}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as OperatorAnswer['body'] };
  };
}
