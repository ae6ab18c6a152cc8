import type { ToolKind } from './define-tool.ts';

/** MCP `execution.taskSupport` values (2025-11-25). */
export type TaskSupport = 'optional' | 'forbidden';

/**
 * Whether a tool may be called as an MCP task, derived from its kind like the annotations: writes and
 * requests are durable operations a task can follow; a read has nothing to follow.
 */
export function taskSupportOf(kind: ToolKind): TaskSupport {
  return kind === 'read' ? 'forbidden' : 'optional';
}

/** What the contract says about a tool called as a task, beyond the tool's own notes. */
export function taskNotesOf(kind: ToolKind): readonly string[] {
  return kind === 'request'
    ? [
        'Called as an MCP task, the task completes once the third party has received the request (status submitted); ' +
          "its later decision is read with the domain's own status tool, not tasks/get.",
      ]
    : [];
}
