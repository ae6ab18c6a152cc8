import type { Principal } from '../auth/principal.ts';
import { rolloutAdmits } from './rollout.ts';
import type { RegisteredTool, ServedVersions, ToolRegistry } from './tool-registry.ts';

/**
 * The `_meta` key a call pins the contract version it was written against with: a semver or a bare
 * major. A pin naming a version other than the one the caller is served is refused like an unknown tool.
 */
export const CONTRACT_VERSION_META_KEY = 'io.toolgate/contract-version';

/**
 * The version of `name` this principal sees and may call: the newest major whose rollout admits it,
 * else the version without a rollout. Undefined for a name not served.
 */
export function servedVersion(
  registry: ToolRegistry,
  name: string,
  principal: Principal | null,
): RegisteredTool | undefined {
  const versions = registry.versionsOf(name);
  if (versions.length < 2 || principal === null) return registry.get(name);
  for (let index = versions.length - 1; index >= 0; index -= 1) {
    const tool = versions[index]!;
    const rule = tool.definition.rollout;
    if (rule && rolloutAdmits(rule, principal, name)) return tool;
  }
  return registry.get(name);
}

/** The versions this principal is served of every name served in more than one, for its listing. */
export function servedVersionsFor(registry: ToolRegistry, principal: Principal): ServedVersions {
  const chosen = new Map<string, RegisteredTool>();
  for (const name of registry.versionedNames()) {
    const tool = servedVersion(registry, name, principal);
    if (tool) chosen.set(name, tool);
  }
  const key = [...chosen].map(([name, tool]) => `${name}@${tool.definition.majorVersion}`).join(' ');
  return { key, of: (name) => chosen.get(name) };
}

/**
 * Whether a call's pin (CONTRACT_VERSION_META_KEY) allows the version it would be served: true
 * without a pin, or for a pin of that major.
 */
export function pinAllows(
  meta: Readonly<Record<string, unknown>> | undefined,
  tool: RegisteredTool,
): boolean {
  const pin = meta?.[CONTRACT_VERSION_META_KEY];
  if (pin === undefined) return true;
  const match = typeof pin === 'string' ? /^(0|[1-9]\d*)(?:\.\d+\.\d+)?$/.exec(pin) : null;
  return match !== null && Number(match[1]) === tool.definition.majorVersion;
}
