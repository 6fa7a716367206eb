/**
 * What the export screen gives for the 2× image (docs/export.md "Density"): Generate's HTML for
 * an e-mail platform loads the `@2x` image with the 1× width attribute and says so, the direct
 * link stays 1×; a web page gets `srcset` with both; a signed design's 2× path is signed apart;
 * a design too large at 2× keeps the 1× image. An animated GIF design's e-mail image is its `.gif`
 * at 1× (docs/export.md "Animated designs"), its web page's the still.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { providerOf } from '#shared/providers/index.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { answer } from '../../test/api.ts';
import { aUser } from '../../test/fixtures.ts';
import { toExportDesign } from './api.ts';
import { ExportOutputsSection, GenerateButton } from './GeneratePanel.tsx';
import { exportRows, type ExportDesign } from './model.ts';
import { useExportForm } from './useExportForm.ts';

const BASE = 'https://cdn.example/r/abc';

function aDesign(fields: Record<string, unknown> = {}): ExportDesign {
  return toExportDesign({
    id: 'd1',
    title: 'Sale',
    version: 4,
    base_url: BASE,
    canvas_width: 600,
    canvas_height: 400,
    graphics_data: [],
    text_snippets: [
      {
        text: 'Hi {{first_name}}',
        parameters: [
          {
            id: 'p1',
            param_name: 'first_name',
            param_default_value: 'there',
            merge_tag_value: '{{ first_name }}',
          },
        ],
      },
    ],
    ...fields,
  });
}

/** Generate and its outputs, on the screen's real form. */
function Harness({
  design,
  provider,
  signed = design.require_signed_urls,
}: {
  design: ExportDesign;
  provider: string;
  /** "Require signed URLs" as the screen has it (turned on there, or as loaded). */
  signed?: boolean;
}) {
  const exportForm = useExportForm(design);
  const platform = providerOf(provider);
  return (
    <>
      <GenerateButton
        idBase="export"
        hint="ready"
        generating={exportForm.generating}
        error={exportForm.generateError}
        onGenerate={() =>
          exportForm.generate({
            provider,
            rows: exportRows(design),
            pdfAllowed: false,
            signed,
          })
        }
      />
      {exportForm.outputs && (
        <ExportOutputsSection idBase="export" outputs={exportForm.outputs} platform={platform} />
      )}
    </>
  );
}

const copyValue = (name: string) =>
  (screen.getByRole('textbox', { name }) as HTMLTextAreaElement).value;

async function generate(design: ExportDesign, provider: string, signed?: boolean) {
  answer('POST /api/pic-snippet/{id}/cache-id', 200, {
    success: true,
    cache_id: 'v4',
    version: 4,
  });
  const { user } = renderWithProviders(
    <Harness design={design} provider={provider} signed={signed} />,
    { signedInAs: aUser() },
  );
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  await screen.findByRole('heading', { name: /Ready to paste/ });
}

describe('the 2× image on the export screen', () => {
  it('gives an e-mail platform the 2× image at the 1× width, and says so', async () => {
    await generate(aDesign(), 'mailchimp');
    const html = copyValue('HTML');
    expect(html).toContain(`<img src="${BASE}/v4@2x?first_name=`);
    expect(html).toContain(' width="600" ');
    expect(copyValue('Direct link').startsWith(`${BASE}/v4?first_name=`)).toBe(true);
    expect(screen.getByText(/loads the image at twice its size/)).toBeTruthy();
    expect(screen.getByText(/width="600"/, { selector: 'p' })).toBeTruthy();
  });

  it('gives a web page srcset with the 1× and 2× images', async () => {
    await generate(aDesign(), 'mywebsite');
    expect(copyValue('HTML')).toContain(`srcset="${BASE}/v4 1x, ${BASE}/v4@2x 2x"`);
  });

  it('signs the 2× path apart for a signed design', async () => {
    const sign = answer('POST /api/pic-snippet/{id}/sign', 200, {
      success: true,
      url: `${BASE}/v4?__sf=names&__sig=${'s'.repeat(43)}&first_name=`,
      form: 'names',
      expires_at: null,
    });
    await generate(aDesign({ require_signed_urls: true }), 'mailchimp');
    expect(sign.requests.map((r) => r.body.density)).toEqual([undefined, 2]);
    expect(copyValue('HTML')).toContain(`<img src="${BASE}/v4@2x?__sf=names&amp;__sig=`);
  });

  it('keeps the 1× image for a design too large at 2×', async () => {
    await generate(aDesign({ canvas_width: 1056, canvas_height: 2400 }), 'mailchimp');
    const html = copyValue('HTML');
    expect(html).toContain(`<img src="${BASE}/v4?first_name=`);
    expect(html).not.toContain(' width="');
    expect(screen.queryByText(/twice its size/)).toBeNull();
  });
});

describe('an animated GIF design on the export screen', () => {
  const gifPhoto = { base_image_key: 'uploads/u1/anim.gif' };

  it('gives an e-mail platform the .gif at 1×', async () => {
    await generate(aDesign(gifPhoto), 'mailchimp');
    expect(copyValue('HTML')).toContain(`<img src="${BASE}/v4.gif?first_name=`);
    expect(copyValue('Direct link').startsWith(`${BASE}/v4.gif?first_name=`)).toBe(true);
    expect(screen.queryByText(/twice its size/)).toBeNull();
  });

  it('does so for a plain GIF sticker', async () => {
    const sticker = (stickerType: string) => ({
      graphics_data: [{ uuid: 's1', stickerType, url: 'https://cdn.example/u/dance.GIF' }],
    });
    await generate(aDesign(sticker('upload')), 'klaviyo');
    expect(copyValue('Direct link').startsWith(`${BASE}/v4.gif?`)).toBe(true);
  });

  it('keeps the still for a web page', async () => {
    await generate(aDesign(gifPhoto), 'mywebsite');
    expect(copyValue('HTML')).toContain(`srcset="${BASE}/v4 1x, ${BASE}/v4@2x 2x"`);
  });

  it('keeps the still when Require signed URLs is turned on after the screen opened', async () => {
    // The signature covers the path the server signs, which has no `.gif`.
    const sign = answer('POST /api/pic-snippet/{id}/sign', 200, {
      success: true,
      url: `${BASE}/v4?__sf=names&__sig=${'s'.repeat(43)}&first_name=`,
      form: 'names',
      expires_at: null,
    });
    await generate(aDesign(gifPhoto), 'klaviyo', true);
    expect(copyValue('Direct link').startsWith(`${BASE}/v4?__sf=names&__sig=`)).toBe(true);
    expect(copyValue('HTML')).not.toContain('.gif');
    expect(sign.requests.length).toBeGreaterThan(0);
  });

  it('keeps the still, not .gif, for a design with a dynamic sticker drawing a GIF', async () => {
    const dynamic = {
      graphics_data: [
        { uuid: 's1', stickerType: 'dynamicSticker', url: 'https://cdn.example/u/dance.gif' },
      ],
    };
    await generate(aDesign(dynamic), 'mailchimp');
    expect(copyValue('Direct link').startsWith(`${BASE}/v4?first_name=`)).toBe(true);
  });
});
