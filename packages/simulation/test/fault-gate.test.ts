import { describe, expect, it } from 'vitest';
import { ExternalOutcomeUnknownError, ExternalUnavailableError } from '../src/external-errors.ts';
import { throughFaults } from '../src/fault-gate.ts';
import { FaultInjector } from '../src/faults.ts';

const signal = new AbortController().signal;

describe('throughFaults', () => {
  it('leaves out the named member of an answer after applying it (an output regression)', async () => {
    const faults = new FaultInjector();
    faults.arm({ target: 'platform', fault: 'omit_field', times: 3, params: { field: 'item.state' } });
    let applied = 0;
    const answer = () =>
      throughFaults(faults, 'platform', { action: 'read' }, signal, async () => {
        applied += 1;
        return { id: 'x', item: { state: 'open', title: 't' } };
      });
    expect(await answer()).toEqual({ id: 'x', item: { title: 't' } });
    faults.clear();
    faults.arm({ target: 'platform', fault: 'omit_field', params: { field: 'state' } });
    const list = await throughFaults(faults, 'platform', { action: 'list' }, signal, async () => [
      { id: 'a', state: 'open' },
      { id: 'b', state: 'done' },
    ]);
    expect(list).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(applied).toBe(1);
    expect(await answer()).toEqual({ id: 'x', item: { state: 'open', title: 't' } });
  });

  it('applies before losing the answer, and applies nothing when unavailable', async () => {
    const faults = new FaultInjector();
    const effects: string[] = [];
    const apply = async () => {
      effects.push('applied');
      return 'ok';
    };
    faults.arm({ target: 'platform', fault: 'drop_response_after_apply' });
    await expect(
      throughFaults(faults, 'platform', { action: 'write' }, signal, apply),
    ).rejects.toBeInstanceOf(ExternalOutcomeUnknownError);
    faults.arm({ target: 'platform', fault: 'unavailable' });
    await expect(
      throughFaults(faults, 'platform', { action: 'write' }, signal, apply),
    ).rejects.toBeInstanceOf(ExternalUnavailableError);
    expect(effects).toEqual(['applied']);
    expect(await throughFaults(faults, 'platform', { action: 'write' }, signal, apply)).toBe('ok');
  });
});
