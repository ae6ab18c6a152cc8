import { z } from 'zod';

export type Severity = 'breaking' | 'compatible';
/** Where a schema change sits: what callers send, or what they get back. */
export type SchemaSide = 'input' | 'output';

const B = 'breaking' as const;
const C = 'compatible' as const;

/**
 * Every kind of change the diff reports and how it is judged. Schema classes are judged by side:
 * narrowing what callers may send breaks callers; widening what they may get back breaks consumers.
 * Wording changes are compatible but reported, because descriptions steer agent behaviour.
 */
export const CHANGE_CLASSES = {
  tool_added: { severity: C, summary: 'new tool' },
  tool_removed: { severity: B, summary: 'tool removed' },
  tool_renamed: { severity: B, summary: 'tool renamed' },
  kind_changed: { severity: B, summary: 'kind changed' },
  mutation_changed: { severity: B, summary: 'mutation changed' },
  scope_added: { severity: B, summary: 'scope added' },
  scope_removed: { severity: C, summary: 'scope removed' },
  error_removed: { severity: B, summary: 'error code removed' },
  error_category_changed: { severity: B, summary: 'error category changed' },
  error_retryable_changed: { severity: B, summary: 'error retryability changed' },
  error_added: { severity: C, summary: 'new error code' },
  error_description_changed: { severity: C, summary: 'error description changed' },
  title_changed: { severity: C, summary: 'title changed' },
  description_changed: { severity: C, summary: 'description changed' },
  examples_changed: { severity: C, summary: 'examples changed' },
  annotations_changed: { severity: C, summary: 'annotations changed' },
  task_support_added: { severity: C, summary: 'may now be called as an MCP task' },
  task_support_removed: { severity: B, summary: 'may no longer be called as an MCP task' },
  timeout_changed: { severity: C, summary: 'timeout changed' },
  policy_changed: { severity: C, summary: 'operation policy changed' },
  notes_changed: { severity: C, summary: 'documented limits changed' },
  version_changed: { severity: C, summary: 'contract version changed' },
  input_field_added_required: { severity: B, summary: 'new required input field' },
  input_field_added_optional: { severity: C, summary: 'new optional input field' },
  input_field_removed: { severity: B, summary: 'input field removed' },
  input_made_required: { severity: B, summary: 'optional input made required' },
  input_made_optional: { severity: C, summary: 'required input made optional' },
  output_field_added: { severity: C, summary: 'new output field' },
  output_field_removed: { severity: B, summary: 'output field removed' },
  output_made_optional: { severity: B, summary: 'output field made optional' },
  output_made_required: { severity: C, summary: 'output field made required' },
  enum_value_removed: { severity: { input: B, output: C }, summary: 'enum value removed' },
  enum_value_added: { severity: { input: C, output: B }, summary: 'enum value added' },
  type_narrowed: { severity: { input: B, output: C }, summary: 'type narrowed' },
  type_widened: { severity: { input: C, output: B }, summary: 'type widened' },
  type_changed: { severity: B, summary: 'type changed' },
  bounds_tightened: { severity: { input: B, output: C }, summary: 'bounds tightened' },
  bounds_loosened: { severity: { input: C, output: B }, summary: 'bounds loosened' },
  pattern_changed: { severity: B, summary: 'pattern or format changed' },
  default_changed: { severity: { input: B, output: C }, summary: 'default changed' },
  object_closed: { severity: { input: B, output: C }, summary: 'object closed to unknown fields' },
  object_opened: { severity: { input: C, output: B }, summary: 'object opened to unknown fields' },
  field_description_changed: { severity: C, summary: 'field description changed' },
  // Clients mirror x-mcp-header from the schema they list, so a new or renamed header follows by itself.
  field_header_changed: { severity: C, summary: 'mirrored Mcp-Param header changed' },
} as const satisfies Record<string, { severity: Severity | Record<SchemaSide, Severity>; summary: string }>;

export type ChangeClass = keyof typeof CHANGE_CLASSES;

export const contractChangeSchema = z.strictObject({
  tool: z.string(),
  change: z.enum(Object.keys(CHANGE_CLASSES) as [ChangeClass, ...ChangeClass[]]),
  severity: z.enum(['breaking', 'compatible']),
  /** JSON pointer into the tool's entry of the new contract (the old one when the thing was removed). */
  pointer: z.string(),
  message: z.string(),
});
export type ContractChange = z.infer<typeof contractChangeSchema>;

export function severityOf(change: ChangeClass, side?: SchemaSide): Severity {
  const { severity } = CHANGE_CLASSES[change];
  if (typeof severity === 'string') return severity;
  if (!side) throw new Error(`change ${change} is judged by side and needs one`);
  return severity[side];
}
