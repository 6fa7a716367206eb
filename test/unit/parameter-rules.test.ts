import { describe, expect, it } from 'vitest';
import {
  NO_TEXT_TRANSFORM,
  changeTextTransform,
  copyParameterName,
  nextParameterName,
  sanitizeParameterName,
  storedParameterValue,
  validateParameterName,
  validateParameterValue,
} from '#shared/parameter-rules.ts';

describe('sanitizeParameterName (spec 000 §5: other characters are stripped as typed)', () => {
  it.each([
    ['first name', 'firstname'],
    ['first_name', 'first_name'],
    ['e-mail!', 'e-mail'],
    ['{{city}}', 'city'],
    ['Zoë', 'Zo'],
    ['名前', ''],
    ['a.b/c?d=e&f', 'abcdef'],
    ['', ''],
  ])('%j becomes %j', (raw, clean) => {
    expect(sanitizeParameterName(raw)).toBe(clean);
  });
});

describe('validateParameterName (spec 000 §5 messages, word for word)', () => {
  it('refuses an empty name', () => {
    expect(validateParameterName('', [])).toBe("Parameter's name field cannot be empty");
  });

  it('refuses a name of only digits, with the spec\u2019s double space', () => {
    expect(validateParameterName('2024', [])).toBe(
      "Parameter's name field  cannot include only digits",
    );
  });

  it('refuses a name another parameter of the design uses', () => {
    expect(validateParameterName('city', ['first_name', 'city'])).toBe(
      'This name is already being used.',
    );
  });

  it('compares names exactly, as the render URL does', () => {
    expect(validateParameterName('City', ['city'])).toBeNull();
  });

  it.each(['first_name', 'a1', '1a', '-', '_2', 'qrCode1'])('allows %j', (name) => {
    expect(validateParameterName(name, ['city'])).toBeNull();
  });
});

describe('nextParameterName (spec 000 §4: an incremented suffix if the name is taken)', () => {
  it('keeps a free name', () => {
    expect(nextParameterName('city', ['first_name'])).toBe('city');
  });

  it('numbers a taken name with the first free suffix', () => {
    expect(nextParameterName('param', ['param'])).toBe('param1');
    expect(nextParameterName('param', ['param', 'param1', 'param3'])).toBe('param2');
  });

  it('counts on from a name that ends in a number', () => {
    expect(nextParameterName('q7', ['q7'])).toBe('q8');
    expect(nextParameterName('q7', ['q7', 'q8'])).toBe('q9');
  });

  it('falls back to the default name for an empty or all-digit base', () => {
    expect(nextParameterName('', [])).toBe('param');
    expect(nextParameterName('123', ['param'])).toBe('param1');
  });
});

describe('copyParameterName (spec 000 §5: copies get suffix _copy plus a number)', () => {
  it('adds _copy1, then the next free number', () => {
    expect(copyParameterName('first_name', ['first_name'])).toBe('first_name_copy1');
    expect(copyParameterName('first_name', ['first_name', 'first_name_copy1'])).toBe(
      'first_name_copy2',
    );
  });

  it('copies a copy from its stem instead of stacking suffixes', () => {
    expect(copyParameterName('first_name_copy1', ['first_name', 'first_name_copy1'])).toBe(
      'first_name_copy2',
    );
  });
});

describe('fallback values (spec 000 §3, §5)', () => {
  it('allows 255 characters and refuses 256 with the spec message', () => {
    expect(validateParameterValue('x'.repeat(255))).toBeNull();
    expect(validateParameterValue('x'.repeat(256))).toBe(
      'Value may not be greater than 255 character!',
    );
  });

  it('stores a blank value as a single space and keeps others as typed', () => {
    expect(storedParameterValue('')).toBe(' ');
    expect(storedParameterValue('   ')).toBe(' ');
    expect(storedParameterValue(null)).toBe(' ');
    expect(storedParameterValue(' there ')).toBe(' there ');
  });
});

describe('changeTextTransform (spec 000 §4 "Text transform")', () => {
  const caps = {
    checkFormating: true,
    formatOptionKey: 'allCaps' as const,
    formatOptionName: 'All Caps',
  };

  it('switching off clears the option key and name', () => {
    expect(changeTextTransform(caps, { checkFormating: false })).toEqual(NO_TEXT_TRANSFORM);
  });

  it('choosing an option switches on and sets its key and name', () => {
    expect(changeTextTransform(NO_TEXT_TRANSFORM, { formatOptionKey: 'upperCase' })).toEqual({
      checkFormating: true,
      formatOptionKey: 'upperCase',
      formatOptionName: 'UpperCase',
    });
    expect(changeTextTransform(caps, { formatOptionKey: 'noSpaces' })).toEqual({
      checkFormating: true,
      formatOptionKey: 'noSpaces',
      formatOptionName: 'No Spaces',
    });
  });

  it('the bare toggle flips formatting on and off', () => {
    const on = changeTextTransform(NO_TEXT_TRANSFORM, {});
    expect(on).toEqual({ checkFormating: true, formatOptionKey: null, formatOptionName: null });
    expect(changeTextTransform(caps, {})).toEqual(NO_TEXT_TRANSFORM);
  });

  it('switching on keeps a chosen option', () => {
    expect(changeTextTransform(caps, { checkFormating: true })).toEqual(caps);
  });
});
