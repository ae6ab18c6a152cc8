import type { Principal } from 'toolgate';
import type { EvalWorld } from './eval-world.ts';
import type { WorldAction } from './scenario-schema.ts';
import { renderTemplates, type TemplateScope } from './template.ts';

/** Applies one scenario world action (templates rendered now, so they see the current world). */
export async function applyWorldAction(world: EvalWorld, action: WorldAction, scope: TemplateScope) {
  const rendered = renderTemplates(action, scope) as WorldAction;
  if ('fault' in rendered) await world.armFault(rendered.fault);
  else if ('simulate' in rendered) {
    const { target, action: name, params } = rendered.simulate;
    await world.simulate(target, name, params);
  } else if ('rate_limit' in rendered) {
    const principal = scope.values.principal as Principal | undefined;
    if (!principal) throw new Error('rate_limit needs the trial principal');
    await world.limitRate(principal, rendered.rate_limit.tool_kind, rendered.rate_limit.per_second);
  } else await world.shiftClock(rendered.shift_clock_ms);
  return rendered;
}
