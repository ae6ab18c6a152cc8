/**
 * A UTC date-time field: a text box that takes `2026-12-02 09:30` (the browser's own date-time picker
 * shows the viewer's local zone and clock, which a UTC label would contradict), with its format as a
 * hint the field is described by.
 */
import { el } from './dom.ts';
import { UTC_INPUT_PATTERN, utcInputValue } from './format.ts';

export function utcField(
  id: string,
  name: string,
  label: string,
  options: { required?: boolean; value?: string } = {},
) {
  const hint = `${id}-hint`;
  return [
    el('label', { for: id, text: `${label} (UTC)` }),
    el('input', {
      id,
      name,
      type: 'text',
      inputmode: 'numeric',
      pattern: UTC_INPUT_PATTERN,
      placeholder: 'YYYY-MM-DD HH:MM',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': hint,
      ...(options.required ? { required: '' } : {}),
      ...(options.value ? { value: utcInputValue(options.value) } : {}),
    }),
    el('small', { id: hint, class: 'hint', text: 'UTC, 24-hour: YYYY-MM-DD HH:MM' }),
  ];
}
