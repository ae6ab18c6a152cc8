import { cursorSchema, defineTool, outcome, pageSizeSchema, textSchema } from 'toolgate';
import { z } from 'zod';
import { changeStateSchema, serviceIdSchema } from '../change-schemas.ts';
import type { ChangeService } from '../change-service.ts';
import { changeSummary, changeSummarySchema, isPlatformReadFailure } from '../change-views.ts';
import { CHANGE_PLATFORM, environmentSchema } from '../systems/change-platform/change-record.ts';

const MAX_PAGE = 25;

const cursorPayload = z.strictObject({ before: z.number().int().positive() });

/** change_search: bounded, paginated look-up of existing changes, newest first. */
export function changeSearchTool(service: ChangeService) {
  return defineTool({
    name: 'change_search',
    title: 'Search change requests',
    description: [
      'Lists existing change requests of your organisation, newest first, filtered by service, environment, state, summary text and scheduled start.',
      'Use it before creating a change to see whether one already exists for the same work, or to answer questions about planned changes.',
      'Do not use it to create anything (it changes nothing) or to fetch one known id with its plans (use change_get).',
      `Returns at most ${MAX_PAGE} changes per page (no plans) and next_cursor for the next page (null on the last). Only complete changes are listed.`,
    ].join(' '),
    kind: 'read',
    externalSystems: [CHANGE_PLATFORM],
    version: '2.1.1',
    input: z.strictObject({
      service_id: serviceIdSchema.optional(),
      environment: environmentSchema.optional().describe('Only changes affecting this environment.'),
      state: changeStateSchema.optional(),
      text: textSchema({ min: 3, max: 100 })
        .optional()
        .describe('Case-insensitive text that must appear in the summary.'),
      scheduled_from: z.iso
        .datetime({ offset: true })
        .optional()
        .describe('Only changes starting at or after this time (RFC 3339 with offset).'),
      scheduled_to: z.iso
        .datetime({ offset: true })
        .optional()
        .describe('Only changes starting before this time (RFC 3339 with offset).'),
      page_size: pageSizeSchema(MAX_PAGE, 10),
      cursor: cursorSchema.optional(),
    }),
    output: z.strictObject({
      changes: z.array(changeSummarySchema).max(MAX_PAGE).describe('Matching changes, newest first.'),
      next_cursor: z
        .string()
        .nullable()
        .describe('Pass as cursor for the next page; null when there is none.'),
    }),
    errors: [],
    scopes: ['changes:read'],
    timeoutMs: 5_000,
    examples: [
      {
        title: 'Production changes of a service',
        input: { service_id: 'payments-api', environment: 'production' },
      },
      { title: 'Changes waiting for approval', input: { state: 'pending_approval', page_size: 5 } },
    ],
    async handler(input, ctx) {
      let before: number | undefined;
      if (input.cursor) {
        const decoded = decodeCursor(input.cursor);
        if (decoded === null) {
          return outcome.failed('INVALID_ARGUMENT', 'The cursor is not one this tool issued.', {
            resolution: 'Use next_cursor exactly as returned, or omit cursor for the first page.',
            field_errors: [{ field: 'cursor', code: 'INVALID_CURSOR', message: 'Unknown cursor.' }],
          });
        }
        before = decoded;
      }
      try {
        const page = await service.platform.searchChanges(
          {
            tenant: ctx.principal.tenant,
            serviceId: input.service_id,
            environment: input.environment,
            state: input.state,
            text: input.text,
            scheduledFrom: input.scheduled_from ? Date.parse(input.scheduled_from) : undefined,
            scheduledTo: input.scheduled_to ? Date.parse(input.scheduled_to) : undefined,
            beforeNumber: before,
            limit: input.page_size,
          },
          ctx.signal,
        );
        return outcome.completed({
          changes: page.records.map(changeSummary),
          next_cursor: page.nextBefore === null ? null : encodeCursor(page.nextBefore),
        });
      } catch (error) {
        if (!isPlatformReadFailure(error)) throw error;
        return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The change platform did not answer.', {
          resolution: 'Retry in a moment.',
        });
      }
    },
  });
}

function encodeCursor(before: number): string {
  return Buffer.from(JSON.stringify({ before })).toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  try {
    const parsed = cursorPayload.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.before : null;
  } catch {
    return null;
  }
}
