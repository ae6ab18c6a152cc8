import { isPlainRead } from './read-lanes.ts';

/** A statement in PostgreSQL's spelling, with the name it is prepared under on each connection. */
export interface TranslatedStatement {
  readonly text: string;
  readonly name: string;
  /** A plain SELECT: reads rows and takes no lock a transaction could hold (no FOR UPDATE/SHARE). */
  readonly plainRead: boolean;
}

/**
 * Rewrites the portable `?` placeholders to PostgreSQL's `$1, $2, ...`. Question marks inside
 * string literals, quoted identifiers and comments are left alone. Results are cached per SQL text,
 * since the same few statements run on every call, and each gets a stable prepared-statement name.
 */
export class PlaceholderTranslator {
  readonly #cache = new Map<string, TranslatedStatement>();

  translate(sql: string): TranslatedStatement {
    let translated = this.#cache.get(sql);
    if (translated === undefined) {
      translated = {
        text: numberPlaceholders(sql),
        name: `tg_${this.#cache.size + 1}`,
        plainRead: isPlainRead(sql),
      };
      this.#cache.set(sql, translated);
    }
    return translated;
  }
}

export function numberPlaceholders(sql: string): string {
  let out = '';
  let index = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      const end = closingQuote(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === '?') {
      index += 1;
      out += `$${index}`;
      i += 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** Index just past the literal that opens at `start`; a doubled quote is an escaped quote. */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}
