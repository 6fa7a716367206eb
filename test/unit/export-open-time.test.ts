/**
 * The export screen's open-time facts (docs/export.md "Open-time hints"): which designs need a
 * recipient value for a first-open timer, have rules, or select a record by a URL value.
 */
import { describe, expect, it } from 'vitest';
import { openTimeFacts } from '../../web/src/features/export/openTime.ts';

const timer = (start: string, mode = 'evergreen') => ({
  uuid: `t-${start}`,
  dynamicStickerType: 'countdown',
  dynamicStickerParamName: 'start_at',
  countdown: { mode, start },
});

describe('open-time facts', () => {
  it('names the recipient parameters of a timer counting from the first open', () => {
    const facts = openTimeFacts({
      text_snippets: [{ parameters: [{ param_name: 'email' }, { param_name: 'first_name' }] }],
      graphics_data: [timer('first_open')],
    });
    expect(facts.firstOpenTimer).toBe(true);
    expect(facts.params).toEqual(['email', 'first_name']);
    expect(facts.rules).toBe(false);
    // a fixed or parameter-started timer needs no recipient value
    expect(openTimeFacts({ graphics_data: [timer('param')] }).firstOpenTimer).toBe(false);
    expect(openTimeFacts({ graphics_data: [timer('first_open', 'fixed')] }).firstOpenTimer).toBe(
      false,
    );
  });

  it('lists the URL parameters that select a looked-up record', () => {
    const facts = openTimeFacts({
      rules: [{ id: 'r' }],
      data_bindings: [
        { source: 'store', source_id: 's', key_param: 'sku', fields: [] },
        {
          source: 'api',
          source_id: 'a',
          fields: [],
          url_values: [
            { name: 'id', param: 'code', value: '' },
            { name: 'lang', param: '', value: 'en' },
          ],
        },
      ],
    });
    expect(facts).toMatchObject({ rules: true, dataParams: ['code', 'sku'], apiByName: false });
    // an API binding saved without its URL values fills them by their own names
    const legacy = openTimeFacts({ data_bindings: [{ source: 'api', source_id: 'a' }] });
    expect(legacy).toMatchObject({ dataParams: [], apiByName: true });
    // a malformed answer says nothing
    expect(openTimeFacts({ data_bindings: 'x', graphics_data: [null], rules: {} })).toEqual({
      firstOpenTimer: false,
      params: [],
      rules: false,
      dataParams: [],
      apiByName: false,
    });
  });
});
