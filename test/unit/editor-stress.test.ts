/**
 * The stress preview's samples and URLs (docs/editor.md): what the user sees drawn must be what a
 * recipient with that value gets, so the URL must round-trip through the render service's own
 * parser to exactly the sample for every parameter.
 */
import { describe, expect, it } from 'vitest';
import { parseRenderPath, parseRenderQuery } from '#shared/render-url.ts';
import { DesignDocumentSchema } from '#shared/design.ts';
import {
  STRESS_SAMPLES,
  stressSamplePath,
  textParameterNames,
} from '../../web/src/features/editor/document/stress.ts';
import { demoDocument } from '../support/editor.ts';

describe('stress samples', () => {
  it('covers the six cases of docs/editor.mdthe longest exactly 255 characters', () => {
    expect(STRESS_SAMPLES.map((s) => s.label)).toEqual([
      'Empty',
      '255 characters',
      'Emoji',
      'Arabic',
      'Hebrew',
      'Chinese',
    ]);
    expect(STRESS_SAMPLES.find((s) => s.key === 'longest')!.value).toHaveLength(255);
    expect(STRESS_SAMPLES.find((s) => s.key === 'arabic')!.value).toMatch(/[\u0600-\u06ff]/);
    expect(STRESS_SAMPLES.find((s) => s.key === 'hebrew')!.value).toMatch(/[\u0590-\u05ff]/);
    expect(STRESS_SAMPLES.find((s) => s.key === 'chinese')!.value).toMatch(/[\u4e00-\u9fff]/);
    expect(STRESS_SAMPLES.find((s) => s.key === 'emoji')!.value).toMatch(
      /\p{Extended_Pictographic}/u,
    );
  });

  it('lists each text parameter once, in snippet order', () => {
    const base = demoDocument();
    const doc = DesignDocumentSchema.parse({
      ...base,
      text_snippets: [
        ...base.text_snippets,
        {
          id: 'second',
          text: '{{city}} and {{first_name}}',
          left: 0,
          top: 0,
          width: 400,
          fontSize: 32,
          parameters: [
            { id: 'p-city', param_name: 'city', param_default_value: 'here' },
            { id: 'p-first', param_name: 'first_name', param_default_value: 'you' },
          ],
        },
      ],
    });
    expect(textParameterNames(doc)).toEqual(['first_name', 'city']);
  });

  it('builds URLs that the render service reads back as exactly each sample', () => {
    for (const sample of STRESS_SAMPLES) {
      const path = stressSamplePath('demo-welcome', 7, ['first_name', 'city'], sample);
      const [pathname, query = ''] = path.split('?');
      expect(parseRenderPath(pathname!)).toMatchObject({ publicId: 'demo-welcome' });
      expect(pathname).toBe('/r/demo-welcome/v7');
      const values = parseRenderQuery(query);
      expect(values.first_name ?? '').toBe(sample.value);
      expect(values.city ?? '').toBe(sample.value);
      expect(values.__preview).toBe('1');
    }
  });
});
