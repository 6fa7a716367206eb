/**
 * The export screen's image format (./FormatFields.tsx; docs/export.md "Image formats"): offered
 * to web pages and video players only, JPEG by default, WebP and AVIF with what they cost, and a
 * change drops the outputs made before it.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { providerOf } from '#shared/providers/index.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { aUser } from '../../test/fixtures.ts';
import { toExportDesign } from './api.ts';
import { FormatFieldset } from './FormatFields.tsx';
import { useExportForm, type ExportFormState } from './useExportForm.ts';

const design = toExportDesign({
  id: 'd1',
  title: 'Sale',
  base_url: 'https://cdn.example/r/abc',
  graphics_data: [],
  text_snippets: [],
});

/** The fieldset on a real form; `seen` gets the form's state each render. */
function Harness({ provider, seen }: { provider: string; seen: ExportFormState[] }) {
  const exportForm = useExportForm(design);
  seen.push(exportForm);
  const platform = providerOf(provider);
  return (
    <FormatFieldset
      idBase="export"
      exportForm={exportForm}
      platform={platform}
      block={platform.source === 'page' ? 'provider' : null}
      team={null}
      needsEmbed={false}
    />
  );
}

describe('the image format', () => {
  it('is offered to a web page, JPEG first, and chosen into the form', async () => {
    const seen: ExportFormState[] = [];
    const { user } = renderWithProviders(<Harness provider="mywebsite" seen={seen} />, {
      signedInAs: aUser(),
    });
    const select = screen.getByRole('combobox', { name: 'Image format' }) as HTMLSelectElement;
    expect(select.value).toBe('jpeg');
    expect([...select.options].map((o) => o.textContent)).toEqual(['JPEG', 'WebP', 'AVIF']);
    expect(select.getAttribute('aria-describedby')).toBe('export-image-format-hint');
    expect(screen.getByText(/E-mail always gets JPEG/)).toBeTruthy();
    await user.selectOptions(select, 'avif');
    expect(seen.at(-1)!.form.getValues('imageFormat')).toBe('avif');
  });

  it('is not offered to an e-mail platform', () => {
    renderWithProviders(<Harness provider="klaviyo" seen={[]} />, { signedInAs: aUser() });
    expect(screen.queryByRole('combobox', { name: 'Image format' })).toBeNull();
  });
});
