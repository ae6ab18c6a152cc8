import { createRequire } from 'node:module';
import type { Logger } from 'pino';

const require = createRequire(import.meta.url);

/**
 * A silent pino logger (`level: 'silent'`, as the contract build always used) that loads pino only when
 * a module first uses it. Modules are handed a logger in `create()` but the reference domains only
 * keep it for their calls, so building their contract never loads pino and its stream machinery, a
 * measurable share of `lint`'s start-up. pino is CommonJS: the first use loads it synchronously, and
 * from then on every member is the real logger's.
 */
export function deferredSilentLogger(): Logger {
  return deferred(() => (require('pino') as typeof import('pino')).pino({ level: 'silent' }));
}

function deferred(create: () => Logger): Logger {
  let created: Logger | undefined;
  const real = (): Logger => {
    created ??= create();
    return created;
  };
  return new Proxy({} as Logger, {
    get(_target, key) {
      // createApp hands each module `logger.child({ module })`: that must not load pino either.
      if (key === 'child' && created === undefined) {
        return (...args: Parameters<Logger['child']>) => deferred(() => real().child<never>(...args));
      }
      const value: unknown = Reflect.get(real(), key);
      return typeof value === 'function' ? value.bind(real()) : value;
    },
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
