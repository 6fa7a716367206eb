/**
 * The export screen's rule link (docs/rules.md "Links"): a design with rules gets the
 * click-through link beside the image URL (the same URL and query on `/l/`), and its e-mail HTML
 * clicks through it when every outcome has a link; a design without rules is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIDALYTICS_OPTIONS } from '#shared/providers/index.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import {
  exportRows,
  generateOutputs,
  ruleLinkOf,
  type GenerateOptions,
} from '../../web/src/features/export/model.ts';

const BASE = 'https://cdn.example.com/r/demo-welcome';

const design = (rules?: unknown[]) =>
  toExportDesign({
    id: 'd1',
    title: 'Welcome',
    version: 3,
    base_url: BASE,
    canvas_width: 600,
    canvas_height: 400,
    merge_tag_provider: 'mailchimp',
    text_snippets: [{ parameters: [{ id: 'p1', param_name: 'plan', param_default_value: 'you' }] }],
    graphics_data: [],
    ...(rules ? { rules } : {}),
  });

const options = (extra: Partial<GenerateOptions> = {}): GenerateOptions => ({
  provider: 'mailchimp',
  rows: exportRows(design()).map((r) => ({ ...r, merge_tag_value: '*|PLAN|*' })),
  pdf: false,
  width: 100,
  align: 'center',
  link: 'https://shop.example.com/',
  embedCode: '',
  vidalytics: DEFAULT_VIDALYTICS_OPTIONS,
  origin: 'https://cdn.example.com',
  alt: 'Welcome',
  cacheId: 'v3',
  ...extra,
});

describe('the rule link on the export screen', () => {
  it('turns the render path into the link path and keeps the query', () => {
    expect(ruleLinkOf(`${BASE}/v3?plan=*|PLAN|*`)).toBe(
      'https://cdn.example.com/l/demo-welcome/v3?plan=*|PLAN|*',
    );
    expect(ruleLinkOf('/r/x.png?a=/r/b')).toBe('/l/x.png?a=/r/b');
  });

  it('offers no rule link for a design without rules, and its HTML is unchanged', () => {
    const out = generateOutputs(design(), options());
    expect(out.ruleLink).toBeNull();
    expect(out.html).toContain('<a href="https://shop.example.com/"');
  });

  it('offers the rule link beside the image URL, and the HTML clicks through it', () => {
    const out = generateOutputs(
      design([{ id: 'fr', link_url: 'https://shop.example.com/fr' }, { id: 'x' }]),
      options(),
    );
    expect(out.link).toBe(`${BASE}/v3?plan=*|PLAN|*`);
    expect(out.ruleLink).toBe('https://cdn.example.com/l/demo-welcome/v3?plan=*|PLAN|*');
    expect(out.html).toContain('<a href="https://cdn.example.com/l/demo-welcome/v3?plan=*|PLAN|*"');
    // The 2× image at the 1× width (docs/export.md "Density").
    expect(out.html).toContain(`src="${BASE}/v3@2x?plan=*|PLAN|*" width="600"`);
  });

  it('keeps the design link in the HTML when the default would have nowhere to go', () => {
    const rules = [{ id: 'fr', link_url: 'https://shop.example.com/fr' }];
    const noDefault = generateOutputs(design(rules), options({ link: '' }));
    expect(noDefault.ruleLink).not.toBeNull();
    expect(noDefault.html).not.toContain('<a ');
    const noRuleLinks = generateOutputs(design([{ id: 'fr' }]), options());
    expect(noRuleLinks.html).toContain('<a href="https://shop.example.com/"');
  });
});
