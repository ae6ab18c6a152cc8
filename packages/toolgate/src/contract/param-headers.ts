import type { JsonSchema } from './json-schema.ts';

/** An input field mirrored into an `Mcp-Param-{header}` HTTP header (SEP-2243), with its JSON type. */
export interface ParamHeader {
  readonly field: string;
  readonly header: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
}

/** An HTTP field-name token (RFC 9110): no spaces, colons or non-ASCII. */
const HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** The rule each declared header breaks, in words; empty when the declarations are sound. */
export function paramHeaderProblems(
  headers: Readonly<Record<string, string>>,
  fields: readonly string[],
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [field, header] of Object.entries(headers)) {
    if (!fields.includes(field)) problems.push(`headers.${field} is not a top-level input field`);
    if (!HEADER_NAME_PATTERN.test(header)) {
      problems.push(`headers.${field}: "${header}" is not an HTTP header name (letters, digits, "-")`);
    }
    const lower = header.toLowerCase();
    if (seen.has(lower)) problems.push(`headers: "${header}" is declared twice (header names ignore case)`);
    seen.add(lower);
  }
  return problems;
}

/**
 * The input schema with each mirrored field annotated `x-mcp-header`, as MCP clients read it to send
 * the header, and the declarations the gateway checks calls against. A field whose schema is not one
 * primitive type (a string, number, integer or boolean) cannot travel in a header: a problem.
 */
export function withParamHeaders(
  inputSchema: JsonSchema,
  headers: Readonly<Record<string, string>>,
): { schema: JsonSchema; declarations: ParamHeader[]; problems: string[] } {
  const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const declarations: ParamHeader[] = [];
  const problems: string[] = [];
  const annotated: Record<string, JsonSchema> = { ...properties };
  for (const [field, header] of Object.entries(headers)) {
    const type = properties[field]?.type;
    if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type)) {
      problems.push(`headers.${field}: only a string, number, integer or boolean field can be a header`);
      continue;
    }
    annotated[field] = { ...properties[field], 'x-mcp-header': header };
    declarations.push({ field, header, type: type as ParamHeader['type'] });
  }
  if (declarations.length === 0) return { schema: inputSchema, declarations, problems };
  return { schema: { ...inputSchema, properties: annotated }, declarations, problems };
}
