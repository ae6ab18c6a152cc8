import { canonicalJson, sha256Hex } from 'toolgate';
import type { ItemFields } from './systems/tracker/tracker-model.ts';

/** How far back a commit of the same content counts as a possible duplicate. */
export const DUPLICATE_WINDOW_SECONDS = 24 * 60 * 60;

const normalize = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * What makes two work items "the same content": project, type, title and description, ignoring case
 * and runs of whitespace. Priority and labels are left out on purpose: a re-filed item with another
 * priority is still the same piece of work.
 */
export function contentHash(projectId: string, fields: ItemFields): string {
  return sha256Hex(
    canonicalJson({
      project: projectId,
      type: fields.type,
      title: normalize(fields.title),
      description: normalize(fields.description),
    }),
  );
}
