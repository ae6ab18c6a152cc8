import type { ToolExceptions } from '../../packages/toolgate/src/index.ts';

/** `ctx.exceptions` of a context built by hand for a handler test: none is ever in force. */
export const noExceptions: ToolExceptions = {
  active: async () => [],
  use: async () => null,
};
