import { describe, expect, it } from 'vitest';
import { isCommonPassword, teamSlug } from '#functions/auth/registration.ts';

describe('teamSlug (spec 001 §4)', () => {
  it.each([
    ['Acme Flowers & Co', 'acme-flowers-co'],
    ['  Hello   World  ', 'hello-world'],
    ['Café Zoë', 'café-zoë'],
    ['A__B--C', 'a-b-c'],
  ])('%s → %s', (name, slug) => {
    expect(teamSlug(name)).toBe(slug);
  });
});

describe('isCommonPassword', () => {
  it('knows the usual suspects, in any case', () => {
    expect(isCommonPassword('password123')).toBe(true);
    expect(isCommonPassword('QWERTY123')).toBe(true);
    expect(isCommonPassword('violet-tractor-91')).toBe(false);
  });
});
