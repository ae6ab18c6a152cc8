import { z } from 'zod';

/**
 * Input fields a tool names for its calls' audit entries and spans. Argument values stay out of both
 * (DESIGN), with this declared exception: a field named here must be a string enum, so what is
 * recorded is one of a few values the contract lists.
 */
export interface ToolTelemetrySpec {
  /** The top-level input field that says which environment the call acts on (`toolgate.environment`). */
  readonly environment?: string;
}

/** The enum values of a field, when it is a string enum (optional or defaulted); null otherwise. */
function stringEnumValues(schema: unknown): ReadonlySet<string> | null {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap();
  if (!(inner instanceof z.ZodEnum)) return null;
  const values: unknown[] = inner.options;
  return values.every((v) => typeof v === 'string') ? new Set(values as string[]) : null;
}

/** What is wrong with a tool's telemetry declaration, one message per problem. */
export function toolTelemetryProblems(
  spec: ToolTelemetrySpec,
  shape: Readonly<Record<string, unknown>>,
): string[] {
  const field = spec.environment;
  if (field === undefined) return [];
  if (!Object.hasOwn(shape, field)) return [`telemetry.environment ${field} is not an input field`];
  if (stringEnumValues(shape[field]) === null) {
    return [`telemetry.environment ${field} must be a string enum field, so its recorded values are bounded`];
  }
  return [];
}

/** Reads the declared environment from validated input: one of the enum's values, else null. */
export function environmentReader(
  spec: ToolTelemetrySpec | undefined,
  shape: Readonly<Record<string, unknown>>,
): (args: Readonly<Record<string, unknown>>) => string | null {
  const field = spec?.environment;
  const values = field === undefined ? null : stringEnumValues(shape[field]);
  if (field === undefined || values === null) return () => null;
  return (args) => {
    const value = args[field];
    return typeof value === 'string' && values.has(value) ? value : null;
  };
}
