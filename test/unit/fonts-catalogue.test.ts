import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_FONTS,
  DEFAULT_FONT_FAMILY,
  alwaysAvailableFaces,
  fontCatalogue,
  fontGroups,
  fontsourceId,
  resolveFont,
} from '#shared/fonts/catalogue.ts';
import { HOSTED_FAMILIES } from '#shared/fonts/hosted.data.ts';
import { FALLBACK_STACK, fontFamilyList } from '#shared/scene/fonts.ts';
import { readdir } from 'node:fs/promises';

describe('the catalogue (spec 000 §3: family and category of every web font)', () => {
  it('lists the Google families with their categories, without system or icon fonts', () => {
    const catalogue = fontCatalogue();
    expect(catalogue.size).toBeGreaterThan(1500);
    expect(catalogue.get('Lobster')).toBe('display');
    expect(catalogue.get('Caveat')).toBe('handwriting');
    expect(catalogue.get('Roboto Mono')).toBe('monospace');
    expect(catalogue.get('Merriweather')).toBe('serif');
    expect(catalogue.get('Open Sans')).toBe('sans-serif');
    expect(catalogue.has('Arial')).toBe(false);
    expect(catalogue.has('Material Symbols')).toBe(false);
  });

  it('hosts every installed @fontsource family except the bundled fallback stack', async () => {
    const installed = (await readdir('node_modules/@fontsource')).filter(
      (p) => !p.startsWith('noto-sans'),
    );
    expect(HOSTED_FAMILIES.map((f) => f.slug.replace(/-\d+\.\d+\.\d+$/, '')).sort()).toEqual(
      installed.sort(),
    );
    for (const family of HOSTED_FAMILIES) {
      expect(family.faces.some((f) => f.weight === 400 && f.style === 'normal')).toBe(true);
      for (const face of family.faces) expect(face.file).toMatch(/\.woff2$/);
    }
  });
});

describe('resolveFont: which files draw a design fontFamily', () => {
  it('draws the built-in fonts of spec 000 §9 under their own names with open look-alikes', () => {
    const journal = resolveFont('Journal');
    expect(journal.source).toBe('built-in');
    expect(journal.family).toBe('Journal');
    expect(journal.faces.length).toBeGreaterThan(0);
    expect(journal.faces.every((f) => f.family === 'Journal')).toBe(true);
    expect(journal.faces[0]!.url).toMatch(/^\/files\/fonts\/hosted\/caveat-[\d.]+\//);
    expect(resolveFont('Baloo').faces[0]!.url).toContain('/baloo-2-');
    expect(resolveFont('Permanent Marker').source).toBe('built-in');
  });

  it('lists USPS IMB Standard disabled and draws it with the default font', () => {
    expect(BUILT_IN_FONTS.find((f) => f.family === 'USPS IMB Standard')?.disabled).toBe(true);
    const usps = resolveFont('USPS IMB Standard');
    expect(usps.source).toBe('fallback');
    expect(usps.family).toBe(DEFAULT_FONT_FAMILY);
  });

  it('draws hosted families from our origin, case-insensitively as CSS does', () => {
    const lobster = resolveFont('lobster');
    expect(lobster).toMatchObject({ family: 'Lobster', source: 'hosted' });
    expect(lobster.faces.every((f) => f.url.startsWith('/files/fonts/hosted/'))).toBe(true);
    expect(new Set(lobster.faces.map((f) => f.unicodeRange)).size).toBe(lobster.faces.length);
  });

  it('needs no faces for the bundled fallback stack', () => {
    expect(resolveFont('Noto Sans')).toEqual({ family: 'Noto Sans', source: 'bundled', faces: [] });
  });

  it("draws a team's upload, and falls back to the default for unknown families", () => {
    const custom = [
      { family: 'Acme Brand', url: '/files/fonts/custom/t/x.woff', format: 'woff' as const },
    ];
    expect(resolveFont('Acme Brand', { custom })).toMatchObject({
      family: 'Acme Brand',
      source: 'custom',
      faces: [{ family: 'Acme Brand', url: '/files/fonts/custom/t/x.woff', format: 'woff' }],
    });
    expect(resolveFont('Acme Brand')).toMatchObject({ family: 'Journal', source: 'fallback' });
  });

  it('takes other catalogue families from the CDN only when one is configured', () => {
    expect(resolveFont('Inter').source).toBe('fallback');
    const inter = resolveFont('Inter', { cdnUrl: 'https://cdn.example/fonts/' });
    expect(inter.source).toBe('cdn');
    expect(inter.faces.map((f) => f.url)).toContain(
      'https://cdn.example/fonts/inter@latest/latin-400-normal.woff2',
    );
    expect(fontsourceId('Playfair Display SC')).toBe('playfair-display-sc');
  });

  it('registers each built-in alias and hosted family in the always-available faces', () => {
    const families = new Set(alwaysAvailableFaces().map((f) => f.family));
    for (const f of BUILT_IN_FONTS.filter((b) => !b.disabled))
      expect(families.has(f.family)).toBe(true);
    expect(families.has('Lobster')).toBe(true);
  });
});

describe('fontGroups: the picker server groups (spec 000 §3 label, weight, options)', () => {
  it('offers the built-in fonts first, then hosted and bundled families by category', () => {
    const groups = fontGroups();
    expect(groups[0]!.label).toBe('Built-in');
    expect(groups[0]!.options.map((o) => o.family)).toEqual(BUILT_IN_FONTS.map((f) => f.family));
    const all = groups.flatMap((g) => g.options.map((o) => o.family));
    expect(all).toContain('Lobster');
    expect(all).toContain('Noto Sans');
    expect(all).toContain('Noto Sans SC');
    // Fallback-only stack families ship without their latin faces: not offered for text.
    expect(all).not.toContain('Noto Sans Thai');
    expect(all).not.toContain('Noto Color Emoji');
    expect(all).not.toContain('Inter');
    expect(all.filter((f) => f === 'Permanent Marker')).toHaveLength(1);
    expect(groups.map((g) => g.weight)).toEqual(
      [...groups.map((g) => g.weight)].sort((a, b) => a - b),
    );
  });

  it('offers the whole catalogue with a CDN', () => {
    const all = fontGroups('https://cdn.example/fonts').flatMap((g) => g.options);
    expect(all.length).toBeGreaterThan(1500);
    expect(all.find((o) => o.family === 'Inter')?.category).toBe('sans-serif');
  });
});

describe('fontFamilyList (the drawn family, then the default font, then the fallback stack)', () => {
  it('puts Journal after the family so unknown fonts fall back to the default (spec 000 §8)', () => {
    // The stack of earlier releases stays in front, in its order, so every character it drew
    // is drawn as before; the families added since draw only what it lacks.
    expect(fontFamilyList('Lobster')).toMatch(
      /^"Lobster", "Journal", "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Color Emoji", "Noto Sans SC", "Noto Sans Thaana", .*"Noto Sans KR", sans-serif$/,
    );
    expect(fontFamilyList('Lobster')).toBe(
      ['Lobster', 'Journal', ...FALLBACK_STACK].map((f) => `"${f}"`).join(', ') + ', sans-serif',
    );
    expect(fontFamilyList('journal').match(/journal/gi)).toHaveLength(1);
  });

  it('holds a family for every script of docs/fonts.md "The fallback stack", each once', () => {
    expect(new Set(FALLBACK_STACK).size).toBe(FALLBACK_STACK.length);
    for (const script of [
      'Arabic',
      'Hebrew',
      'Thaana',
      'Bengali',
      'Gurmukhi',
      'Gujarati',
      'Oriya',
      'Tamil',
      'Telugu',
      'Kannada',
      'Malayalam',
      'Sinhala',
      'Thai',
      'Lao',
      'Khmer',
      'Myanmar',
      'Georgian',
      'Armenian',
      'Ethiopic',
      'SC',
      'TC',
      'JP',
      'KR',
    ]) {
      expect(FALLBACK_STACK).toContain(`Noto Sans ${script}`);
    }
  });
});
