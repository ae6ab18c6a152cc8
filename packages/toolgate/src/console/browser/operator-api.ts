/**
 * How the console talks to /operator/v1: one call with the operator's token as a header, and what it
 * reads, named after the views the routes answer, so that a change to an answer's shape is a type
 * error in the console (the types come from the server's modules and are erased in the browser).
 */

import type { StoredAuditEntry } from '../../operations/audit-log.ts';
import type { OperationStatus } from '../../operations/operation-record.ts';
import type { PolicyException } from '../../operations/policy-exceptions.ts';
import type { ActivityHistory } from '../../operator/activity-history.ts';
import type { ConfirmationQuestionView } from '../../operator/answer-confirmation.ts';
import type { ExceptionState } from '../../operator/exception-views.ts';
import type { OperationView } from '../../operator/operation-listing.ts';
import type { OperatorAuthorityView } from '../../operator/operator-authority.ts';
import type { QueryProblem } from '../../operator/operator-query.ts';
import type { DecisionView } from '../../operator/resolve-operation.ts';
import type { ToolCatalogEntry } from '../../operator/tool-catalog-view.ts';

export type {
  ActivityHistory,
  ConfirmationQuestionView,
  OperationStatus,
  OperationView,
  StoredAuditEntry,
  ToolCatalogEntry,
};

/** The fields of a refusal the console shows: a message, or the problems of a request it sent. */
export interface Refusal {
  readonly message?: string;
  readonly problems?: readonly QueryProblem[];
}

/** One recorded review decision of an operation, as GET /operator/v1/operations/{id} lists it. */
export interface ReviewEntry {
  readonly at: string;
  readonly operator: string;
  readonly previous_status: string;
  readonly resolution: string;
  readonly note: string;
}

export interface OperationDetail {
  readonly operation: OperationView;
  readonly confirmation: ConfirmationQuestionView | null;
  readonly reviews: readonly ReviewEntry[];
  readonly audit: readonly StoredAuditEntry[];
}

export interface OperationPage {
  readonly operations: OperationView[];
  readonly next_cursor?: string | null;
}

export type ExceptionEntry = PolicyException & { readonly state: ExceptionState };

/** One field of an exception kind's target, as its JSON Schema says (scalars and enums only). */
export interface TargetFieldSchema {
  readonly type?: string;
  readonly enum?: readonly (string | number | boolean)[];
  readonly description?: string;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A declared exception kind (`GET /operator/v1/exception-kinds`). */
export interface ExceptionKindView {
  readonly kind: string;
  readonly title: string;
  readonly description: string;
  readonly grant_scope: string;
  readonly max_duration_seconds: number;
  readonly target: { readonly properties?: Readonly<Record<string, TargetFieldSchema>> };
  readonly may_grant: boolean;
}

/** Answers by route, as the console reads them (any answer may also be a refusal). */
export interface OperatorAnswers {
  operations: OperationPage;
  operation: OperationDetail;
  /** `may_answer`: this token may confirm or refuse it (the tool's approver scope, not the requester). */
  confirmations: { confirmations: (ConfirmationQuestionView & { may_answer: boolean })[] };
  confirmationAnswer: { outcome: { status: string; code?: string | null } };
  tools: { tools: ToolCatalogEntry[] };
  exceptions: { exceptions: ExceptionEntry[] };
  exceptionGranted: PolicyException;
  exceptionKinds: { kinds: ExceptionKindView[] };
  resolved: { decision: DecisionView };
  activity: ActivityHistory;
  audit: { entries: StoredAuditEntry[]; next_cursor: string | null; retention_seconds: number };
  me: { subject: string; tenant: string; actor: string; may: OperatorAuthorityView };
}

/** An answer of the operator API: its status and body (a refusal's fields when the status says so). */
export interface ApiReply<T> {
  readonly status: number;
  readonly data: T & Refusal;
}

/** How the console calls the operator API: with the operator's token, as JSON. */
export type OperatorCall = <T>(method: string, path: string, body?: unknown) => Promise<ApiReply<T>>;

/** Where the tab keeps the pasted token (sessionStorage: gone when the tab closes). */
export const TOKEN_KEY = 'toolgate.operatorToken';
export const token = () => sessionStorage.getItem(TOKEN_KEY);

/** Raised when the API refused the token: the tab is signed out and the page says why. */
export class SignedOut extends Error {
  constructor() {
    super('401');
  }
}

/** Forgets the token and has the console draw the sign-in page with `message`. */
export function signOut(message?: string) {
  sessionStorage.removeItem(TOKEN_KEY);
  window.dispatchEvent(new CustomEvent('toolgate:signed-out', { detail: message ?? 'Signed out.' }));
}

export const call: OperatorCall = async <T>(method: string, path: string, body?: unknown) => {
  const response = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const data = (await response.json().catch(() => ({}))) as T & Refusal;
  if (response.status === 401) {
    signOut('The token was not accepted (expired, wrong audience or invalid).');
    throw new SignedOut();
  }
  return { status: response.status, data };
};

/** A refusal in words: its message, else the problems of what was sent, else its status. */
export function refusalText(data: Refusal, status: number) {
  return (
    data.message ??
    (data.problems
      ? data.problems.map((p) => `${p.parameter} ${p.message}`).join('; ')
      : `Refused (${status}).`)
  );
}
