import type { Tool } from '@modelcontextprotocol/client';
import type { OutcomeEnvelope, OutcomeStatus } from 'toolgate';
import { canonicalJson, META_IDEMPOTENCY_KEY } from 'toolgate';
import { callMatches } from '../call-pattern.ts';
import type { LoadedScenario, UserFact } from '../scenario-schema.ts';
import type { TemplateScope } from '../template.ts';
import type { CallRecord, TranscriptEvent } from '../transcript.ts';

/** What the judge knows of the gateway's tools, from the tool listing the agent saw. */
export interface ToolCatalog {
  /** Tools that change something (not annotated read-only). */
  readonly writeTools: ReadonlySet<string>;
  /** Each tool's input JSON Schema, of the tools the caller can list. */
  readonly inputSchemas: ReadonlyMap<string, unknown>;
  /**
   * Input JSON Schemas of every tool the gateway serves, listed to this caller or not: an invented
   * field sent to a tool the caller cannot see is still an invented field.
   */
  readonly servedInputSchemas: ReadonlyMap<string, unknown>;
  /** Write tools among every tool the gateway serves: a task that needs one is a change, listed or not. */
  readonly servedWriteTools: ReadonlySet<string>;
}

/** The catalog of a trial: what the caller lists, and (when the world knows them) every served tool. */
export function toolCatalog(listed: readonly Tool[], served: readonly Tool[] = listed): ToolCatalog {
  const writes = (tools: readonly Tool[]) =>
    tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
  return {
    writeTools: new Set(writes(listed)),
    servedWriteTools: new Set([...writes(served), ...writes(listed)]),
    inputSchemas: new Map(listed.map((t) => [t.name, t.inputSchema])),
    servedInputSchemas: new Map([...served, ...listed].map((t) => [t.name, t.inputSchema])),
  };
}

/** One call of the trajectory with what the rules ask of it. */
export interface CallFact {
  readonly record: CallRecord;
  /** Where it sits among all transcript events (user turns and world actions included). */
  readonly position: number;
  readonly write: boolean;
  /** The idempotency key, from the argument or `_meta`. */
  readonly key: string | null;
  readonly dryRun: boolean;
  /** A dry run, or a call the scenario declares preparatory (a draft). */
  readonly preparatory: boolean;
  /** A write that executes what the user asked for: neither a read nor preparatory. */
  readonly consequential: boolean;
  /** The tool and its arguments without the key, canonical: the request as the backend fingerprints it. */
  readonly request: string;
  /** The envelope's status; null when the call was answered with a protocol error. */
  readonly status: OutcomeStatus | null;
  readonly envelope: OutcomeEnvelope | null;
}

/** A trial's trajectory, read once for every rule. */
export interface TrialFacts {
  readonly events: readonly TranscriptEvent[];
  readonly calls: readonly CallFact[];
  /** Position of the user's request (setup world actions may come before it). */
  readonly requestAt: number;
  /** Positions of the user's replies (user turns after the request). */
  readonly replies: readonly number[];
  /** Positions of confirmations the person accepted when the client asked them (elicitation). */
  readonly confirmed: readonly number[];
  /**
   * The reference trajectory calls no write tool (of any the gateway serves): the task is a question,
   * not a change. A change the caller may not make is still a change, and a message saying it was
   * made is still judged.
   */
  readonly informational: boolean;
  /** Reads and consequential calls of the reference trajectory (a polling step counts once). */
  readonly referenceCalls: number;
  /** What the user's words state, from the scenario. */
  readonly userFacts: readonly UserFact[];
}

export function trialFacts(
  events: readonly TranscriptEvent[],
  scenario: LoadedScenario,
  tools: ToolCatalog,
  scope: TemplateScope,
): TrialFacts {
  const calls: CallFact[] = [];
  const requestAt = events.findIndex((e) => e.kind === 'user');
  const replies: number[] = [];
  const confirmed: number[] = [];
  events.forEach((event, position) => {
    if (event.kind === 'user' && position > requestAt) replies.push(position);
    if (event.kind === 'confirmation' && event.answer === 'accept') confirmed.push(position);
    if (event.kind !== 'call') return;
    const write = tools.writeTools.has(event.tool);
    const dryRun = event.args.dry_run === true;
    const preparatory = write && (dryRun || scenario.prepare.some((p) => callMatches(p, event, scope)));
    calls.push({
      record: event,
      position,
      write,
      key: keyOf(event),
      dryRun,
      preparatory,
      consequential: write && !preparatory,
      request: requestIdentity(event.tool, event.args),
      status: event.envelope?.status ?? null,
      envelope: event.envelope,
    });
  });
  const informational = !scenario.reference.steps.some(
    (s) => 'tool' in s && tools.servedWriteTools.has(s.tool),
  );
  const referenceCalls = scenario.reference.steps.filter(
    (s) => 'tool' in s && !(s.args.dry_run === true && tools.writeTools.has(s.tool)),
  ).length;
  return {
    events,
    calls,
    requestAt,
    replies,
    confirmed,
    informational,
    referenceCalls,
    userFacts: scenario.user_facts,
  };
}

export function keyOf(call: CallRecord): string | null {
  const key = call.args.idempotency_key ?? call.meta?.[META_IDEMPOTENCY_KEY];
  return typeof key === 'string' ? key : null;
}

/** Canonical tool + arguments, leaving out the key and any argument named in `omit`. */
export function requestIdentity(
  tool: string,
  args: Record<string, unknown>,
  omit: (name: string) => boolean = () => false,
): string {
  const kept = Object.entries(args).filter(([name]) => name !== 'idempotency_key' && !omit(name));
  return canonicalJson([tool, Object.fromEntries(kept)]);
}

/** The effect may exist or is still being made: the agent must poll or retry with the same key. */
export function isUncertain(status: OutcomeStatus | null): boolean {
  return status === 'outcome_unknown' || status === 'in_progress';
}

/** Nothing happened and the same request will not succeed later. */
export function refusedForGood(fact: CallFact): boolean {
  if (fact.status === null) return true;
  return (fact.status === 'rejected' || fact.status === 'failed') && fact.envelope?.retryable !== true;
}

/** The backend said no (or asked first): nothing happened. */
export function isRefusal(fact: CallFact): boolean {
  return (
    fact.status === null ||
    fact.status === 'rejected' ||
    fact.status === 'failed' ||
    fact.status === 'requires_confirmation'
  );
}

export function describeCall(fact: CallFact): string {
  return `call ${fact.record.index} ${fact.record.tool}`;
}

/** How an answer reads in a reason: its status and code. */
export function describeAnswer(fact: CallFact): string {
  if (fact.status === null) return 'a protocol error';
  return fact.envelope?.code ? `${fact.status} ${fact.envelope.code}` : fact.status;
}
