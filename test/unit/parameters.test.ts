import { describe, expect, it } from 'vitest';
import { DesignDocumentSchema, restoreDesign, type DesignDocument } from '#shared/design.ts';
import {
  ParameterError,
  addParameter,
  changeParameterTextTransform,
  removeParameter,
  removeParameters,
  removePlaceholder,
  renamePlaceholder,
  updateParameter,
} from '#shared/parameters.ts';
import { resolveScene } from '#shared/scene/resolve.ts';

const param = (id: string, name: string, fallback = ' ') => ({
  id,
  param_name: name,
  param_default_value: fallback,
});

/** Two snippets and a QR sticker named `qrCode1`, like a design made in the editor. */
function design(): DesignDocument {
  return DesignDocumentSchema.parse({
    image_id: 'img',
    base_image_key: 'photos/img.jpg',
    text_snippets: [
      {
        id: 'hello',
        text: 'Hello {{first_name}} from {{ city }}!',
        left: 0,
        top: 0,
        width: 500,
        parameters: [param('p-first', 'first_name', 'there'), param('p-city', 'city', 'Lisbon')],
      },
      {
        id: 'footer',
        text: 'Offer for {{company}}',
        left: 0,
        top: 100,
        width: 500,
        parameters: [param('p-company', 'company')],
      },
    ],
    graphics_data: [
      {
        uuid: 'qr',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'qrCode',
        dynamicStickerParamName: 'qrCode1',
        left: 0,
        top: 0,
      },
    ],
  });
}

/** What the render draws for a snippet with the given URL values. */
const drawn = (doc: DesignDocument, values: Record<string, string> = {}) =>
  resolveScene(doc, values).texts.map((t) => t.text);

let counter = 0;
const newId = () => `new-${++counter}`;

function refusal(fn: () => unknown): ParameterError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ParameterError) return error;
    throw error;
  }
  throw new Error('expected a ParameterError');
}

describe('addParameter (spec 000 §4 "Adding a parameter")', () => {
  it('adds a default-named parameter whose placeholder the render fills', () => {
    const before = design();
    const { document, parameter, change } = addParameter(before, 'footer', {}, () => 'uuid-1');
    expect(parameter).toMatchObject({
      id: 'uuid-1',
      param_name: 'param',
      param_default_value: ' ',
    });
    expect(change).toEqual({ textSnippetId: 'footer', paramId: 'uuid-1', action: 'added' });
    expect(document.text_snippets[1]!.text).toBe('Offer for {{company}} {{param}}');
    expect(drawn(document, { company: 'Acme', param: 'today' })[1]).toBe('Offer for Acme today');
    // The input document is untouched.
    expect(before.text_snippets[1]!.parameters).toHaveLength(1);
    expect(before.text_snippets[1]!.text).toBe('Offer for {{company}}');
  });

  it('suffixes a name taken anywhere in the design, dynamic stickers included', () => {
    let doc = design();
    doc = addParameter(doc, 'footer', { param_name: 'city' }, newId).document;
    expect(doc.text_snippets[1]!.parameters.map((p) => p.param_name)).toEqual(['company', 'city1']);
    const qr = addParameter(doc, 'footer', { param_name: 'qrCode1' }, newId);
    expect(qr.parameter.param_name).toBe('qrCode2');
    const again = addParameter(addParameter(doc, 'hello', {}, newId).document, 'hello', {}, newId);
    expect(again.parameter.param_name).toBe('param1');
  });

  it('keeps an existing placeholder instead of appending a second one', () => {
    const doc = DesignDocumentSchema.parse({
      ...design(),
      text_snippets: [{ id: 's', text: 'Hi {{name}}', left: 0, top: 0, width: 100 }],
    });
    const { document } = addParameter(doc, 's', { param_name: 'name' }, newId);
    expect(document.text_snippets[0]!.text).toBe('Hi {{name}}');
  });

  it('stores the fallback, a blank as one space, and the text transform with its name', () => {
    const { parameter } = addParameter(
      design(),
      'footer',
      {
        param_name: 'title',
        param_default_value: 'dear customer',
        text_transform: { checkFormating: true, formatOptionKey: 'upperCase' },
      },
      newId,
    );
    expect(parameter).toMatchObject({
      param_default_value: 'dear customer',
      text_transform: {
        checkFormating: true,
        formatOptionKey: 'upperCase',
        formatOptionName: 'UpperCase',
      },
    });
    const blank = addParameter(design(), 'footer', { param_default_value: '  ' }, newId);
    expect(blank.parameter.param_default_value).toBe(' ');
  });

  it('refuses an explicit name that is empty or only digits, and a long value', () => {
    expect(
      refusal(() => addParameter(design(), 'footer', { param_name: '!!' }, newId)),
    ).toMatchObject({
      kind: 'invalid',
      errors: { param_name: ["Parameter's name field cannot be empty"] },
    });
    const error = refusal(() =>
      addParameter(
        design(),
        'footer',
        { param_name: '42', param_default_value: 'x'.repeat(256) },
        newId,
      ),
    );
    expect(error.errors).toEqual({
      param_name: ["Parameter's name field  cannot include only digits"],
      param_default_value: ['Value may not be greater than 255 character!'],
    });
  });

  it('re-adds a removed parameter under its old id (undo), never a second copy of an id', () => {
    const removed = removeParameter(design(), 'hello', 'p-city');
    const readded = addParameter(
      removed.document,
      'hello',
      { id: 'p-city', param_name: 'city', param_default_value: 'Lisbon' },
      newId,
    );
    expect(readded.parameter).toMatchObject({ id: 'p-city', param_name: 'city' });
    expect(refusal(() => addParameter(design(), 'footer', { id: 'p-city' }, newId)).errors).toEqual(
      { id: ['This parameter already exists.'] },
    );
  });

  it('answers text_snippet_not_found for an unknown snippet', () => {
    expect(refusal(() => addParameter(design(), 'nope', {}, newId)).kind).toBe(
      'text_snippet_not_found',
    );
  });
});

describe('updateParameter (spec 000 §3, §5)', () => {
  it('renames the parameter and its placeholder, so the render takes the new name', () => {
    const { document, parameter, previous, change } = updateParameter(design(), 'hello', 'p-city', {
      param_name: 'town',
    });
    expect(previous.param_name).toBe('city');
    expect(parameter.param_name).toBe('town');
    expect(change).toEqual({ textSnippetId: 'hello', paramId: 'p-city', action: 'updated' });
    expect(document.text_snippets[0]!.text).toBe('Hello {{first_name}} from {{town}}!');
    expect(drawn(document, { town: 'Porto' })[0]).toBe('Hello there from Porto!');
    expect(drawn(document, { city: 'Porto' })[0]).toBe('Hello there from Lisbon!');
  });

  it('keeps original_text and the name before the rename in step', () => {
    const { document, parameter } = updateParameter(design(), 'hello', 'p-city', {
      param_name: 'town',
    });
    expect(document.text_snippets[0]!.original_text).toBe('Hello {{first_name}} from {{town}}!');
    expect(parameter).toMatchObject({ original_param_name: 'city', text_snippet_id: 'hello' });
  });

  it('sanitises the new name as the editor does', () => {
    const { parameter } = updateParameter(design(), 'hello', 'p-city', { param_name: 'home town' });
    expect(parameter.param_name).toBe('hometown');
  });

  it.each([
    ['', "Parameter's name field cannot be empty"],
    ['2024', "Parameter's name field  cannot include only digits"],
    ['first_name', 'This name is already being used.'],
    ['company', 'This name is already being used.'],
    ['qrCode1', 'This name is already being used.'],
  ])('refuses the name %j with %j and changes nothing', (name, message) => {
    const doc = design();
    const error = refusal(() => updateParameter(doc, 'hello', 'p-city', { param_name: name }));
    expect(error.kind).toBe('invalid');
    expect(error.message).toBe(message);
    expect(error.errors).toEqual({ param_name: [message] });
    expect(doc).toEqual(design());
  });

  it('keeps its own name without calling it a conflict', () => {
    const { parameter } = updateParameter(design(), 'hello', 'p-city', {
      param_name: 'city',
      param_default_value: 'Porto',
    });
    expect(parameter).toMatchObject({ param_name: 'city', param_default_value: 'Porto' });
  });

  it('updates the fallback (blank as one space) and refuses more than 255 characters', () => {
    const blank = updateParameter(design(), 'hello', 'p-first', { param_default_value: '' });
    expect(blank.parameter.param_default_value).toBe(' ');
    expect(drawn(blank.document)[0]).toBe('Hello  from Lisbon!');
    const error = refusal(() =>
      updateParameter(design(), 'hello', 'p-first', { param_default_value: 'x'.repeat(256) }),
    );
    expect(error.errors).toEqual({
      param_default_value: ['Value may not be greater than 255 character!'],
    });
  });

  it('sets and clears the text transform, which the render applies', () => {
    const on = updateParameter(design(), 'hello', 'p-first', {
      text_transform: { checkFormating: true, formatOptionKey: 'allCaps' },
    });
    expect(on.parameter.text_transform.formatOptionName).toBe('All Caps');
    expect(drawn(on.document, { first_name: 'ana' })[0]).toBe('Hello ANA from Lisbon!');
    const off = updateParameter(on.document, 'hello', 'p-first', {
      text_transform: { checkFormating: false },
    });
    expect(off.parameter.text_transform).toEqual({
      checkFormating: false,
      formatOptionKey: null,
      formatOptionName: null,
    });
    expect(drawn(off.document, { first_name: 'ana' })[0]).toBe('Hello ana from Lisbon!');
  });

  it('answers parameter_not_found for a parameter of another snippet', () => {
    expect(refusal(() => updateParameter(design(), 'hello', 'p-company', {})).kind).toBe(
      'parameter_not_found',
    );
  });
});

describe('changeParameterTextTransform (spec 000 §4 "Text transform")', () => {
  it('toggles formatting, chooses an option, and switching off clears the option', () => {
    const on = changeParameterTextTransform(design(), 'hello', 'p-first', {});
    expect(on.parameter.text_transform).toEqual({
      checkFormating: true,
      formatOptionKey: null,
      formatOptionName: null,
    });
    const caps = changeParameterTextTransform(on.document, 'hello', 'p-first', {
      formatOptionKey: 'allCaps',
    });
    expect(caps.parameter.text_transform.formatOptionName).toBe('All Caps');
    expect(drawn(caps.document, { first_name: 'ana' })[0]).toBe('Hello ANA from Lisbon!');
    const off = changeParameterTextTransform(caps.document, 'hello', 'p-first', {
      checkFormating: false,
    });
    expect(off.parameter.text_transform).toEqual({
      checkFormating: false,
      formatOptionKey: null,
      formatOptionName: null,
    });
  });
});

describe('removing parameters (spec 000 §7; placeholders go with them)', () => {
  it('removes one parameter and its placeholder with one space', () => {
    const { document, parameter, change } = removeParameter(design(), 'hello', 'p-city');
    expect(parameter.param_name).toBe('city');
    expect(change).toEqual({ textSnippetId: 'hello', paramId: 'p-city', action: 'removed' });
    expect(document.text_snippets[0]!.text).toBe('Hello {{first_name}} from!');
    expect(document.text_snippets[0]!.parameters.map((p) => p.id)).toEqual(['p-first']);
  });

  it('removes several at once, all or nothing', () => {
    const { document, changes } = removeParameters(design(), 'hello', [
      'p-first',
      'p-city',
      'p-first',
    ]);
    expect(changes.map((c) => c.paramId)).toEqual(['p-first', 'p-city']);
    expect(document.text_snippets[0]!.text).toBe('Hello from!');
    expect(document.text_snippets[0]!.parameters).toEqual([]);
    expect(refusal(() => removeParameters(design(), 'hello', ['p-first', 'p-company'])).kind).toBe(
      'parameter_not_found',
    );
  });
});

describe('placeholder text edits', () => {
  it.each([
    ['Hello {{n}} there', 'Hello there'],
    ['Hello {{n}}!', 'Hello!'],
    ['{{n}} there', 'there'],
    ['Hello {{ n }}', 'Hello'],
    ['a{{n}}b {{n}}', 'ab'],
    ['{{name}} keeps {{n1}}', '{{name}} keeps {{n1}}'],
  ])('removing n from %j gives %j', (text, result) => {
    expect(removePlaceholder(text, 'n')).toBe(result);
  });

  it('renames every placeholder of the name and no other', () => {
    expect(renamePlaceholder('{{a}} {{ a }} {{ab}} {a}', 'a', 'b')).toBe('{{b}} {{b}} {{ab}} {a}');
  });
});

describe('documents stay valid for the one restore path (shared/design.ts restoreDesign)', () => {
  it.each([
    ['add', (d: DesignDocument) => addParameter(d, 'footer', { param_name: 'city' }, newId)],
    ['rename', (d: DesignDocument) => updateParameter(d, 'hello', 'p-city', { param_name: 'x' })],
    ['remove', (d: DesignDocument) => removeParameter(d, 'hello', 'p-first')],
    ['remove all', (d: DesignDocument) => removeParameters(d, 'hello', ['p-first', 'p-city'])],
  ])('%s: restoring the result repairs nothing', (_name, operation) => {
    const { document } = operation(design());
    const restored = restoreDesign(document);
    expect(restored.repaired).toEqual([]);
    expect(restored.document).toEqual(document);
  });

  it('finds a text snippet by the uuid of its display data', () => {
    const doc = DesignDocumentSchema.parse({
      ...design(),
      text_snippets: [
        { id: '17', text: 'Hi', left: 0, top: 0, width: 100, display_info: { uuid: 'u-17' } },
      ],
    });
    expect(addParameter(doc, 'u-17', {}, newId).change.textSnippetId).toBe('17');
  });
});
