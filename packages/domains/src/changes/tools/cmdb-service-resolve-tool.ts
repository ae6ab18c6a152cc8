import { defineTool, outcome, textSchema } from 'toolgate';
import { z } from 'zod';
import type { ChangeService } from '../change-service.ts';
import { criticalitySchema, serviceStatusSchema } from '../service-catalog.ts';

/** A top candidate this good, this far ahead of the next, is taken to be what the user meant. */
const CLEAR_SCORE = 0.9;
const CLEAR_LEAD = 0.3;

/** cmdb_service_resolve: a human service name to catalog ids, so no agent has to invent one. */
export function cmdbServiceResolveTool(service: ChangeService) {
  return defineTool({
    name: 'cmdb_service_resolve',
    title: 'Resolve a service name to catalog ids',
    description: [
      'Finds services in your organisation\'s service catalog (CMDB) that match a name as people say it ("payments API", "the checkout site") and returns candidate service_id values with a score.',
      'Use it whenever the user names a service in words and another tool needs its service_id; use only an id it returns.',
      'Do not use it to list changes (use change_search); it changes nothing.',
      'When unambiguous is false, show the candidates to the user and ask which one is meant; an empty list means the catalog has no such service.',
      'Each candidate carries its owner group, criticality and whether it is active or retired.',
    ].join(' '),
    kind: 'read',
    version: '2.1.1',
    input: z.strictObject({
      query: textSchema({ min: 2, max: 100 }).describe('The service as the user named it, 2-100 characters.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(10)
        .default(5)
        .describe('How many candidates to return, 1-10 (default 5).'),
    }),
    output: z.strictObject({
      candidates: z
        .array(
          z.strictObject({
            service_id: z.string().describe('Catalog id to pass as service_id.'),
            name: z.string().describe('Display name of the service.'),
            owner_group: z.string().describe('Team that owns the service.'),
            criticality: criticalitySchema.describe(
              'Business criticality; critical and high raise the risk of production changes.',
            ),
            status: serviceStatusSchema.describe('retired services take no new changes.'),
            score: z.number().min(0).max(1).describe('How well the query matches, 0-1.'),
            matched_on: z.string().describe('The id, name or alias that matched best.'),
          }),
        )
        .max(10)
        .describe('Best matches first.'),
      unambiguous: z
        .boolean()
        .describe(
          'True when the first candidate is a clear match for the query; otherwise ask the user to choose.',
        ),
    }),
    errors: [],
    scopes: ['cmdb:read'],
    timeoutMs: 5_000,
    examples: [{ title: 'Resolve a spoken service name', input: { query: 'payments API' } }],
    async handler(input, ctx) {
      const ranked = (await service.resolve(ctx.principal.tenant, input.query)).slice(0, input.limit);
      const [first, second] = ranked;
      const unambiguous =
        first !== undefined &&
        first.score >= CLEAR_SCORE &&
        first.service.status === 'active' &&
        (second === undefined || first.score - second.score >= CLEAR_LEAD);
      return outcome.completed({
        candidates: ranked.map((c) => ({
          service_id: c.service.serviceId,
          name: c.service.name,
          owner_group: c.service.ownerGroup,
          criticality: c.service.criticality,
          status: c.service.status,
          score: c.score,
          matched_on: c.matchedOn,
        })),
        unambiguous,
      });
    },
  });
}
