import type { ToolExceptions } from 'toolgate';

/** `ctx.exceptions` of a context built by hand for a handler test: none is ever in force. */
export const noExceptions: ToolExceptions = {
  active: async () => [],
  use: async () => null,
};
