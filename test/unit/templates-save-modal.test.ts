/**
 * The Save as template modal's states (web/src/features/templates/saveModalState.ts;
 * docs/templates.md "Model": "Template status in the save modal", docs/editor.md "Messages":
 * "Template save").
 */
import { describe, expect, it } from 'vitest';
import {
  bundleChoices,
  canSubmit,
  initialSaveModalState,
  modalTitle,
  saveModalReducer,
  submitLabel,
  type SaveModalEvent,
  type SaveModalState,
} from '../../web/src/features/templates/saveModalState.ts';

const run = (state: SaveModalState, ...events: SaveModalEvent[]) =>
  events.reduce(saveModalReducer, state);

const options = [
  { id: 'bundle-a', name: 'Autumn', selected: false },
  { id: 'bundle-b', name: 'Black Friday', selected: true },
];

describe('status, title and button', () => {
  it('a design without stored tags is new: "Create a template" and Continue', () => {
    const s = run(initialSaveModalState(), { type: 'open', storedTags: [], bundles: options });
    expect([s.status, modalTitle(s), submitLabel(s)]).toEqual([
      'save',
      'Create a template',
      'Continue',
    ]);
  });
  it('a design with stored tags is a template: "Update tags" and Update', () => {
    const s = run(initialSaveModalState(), { type: 'open', storedTags: ['sale'], bundles: [] });
    expect([s.status, modalTitle(s), submitLabel(s)]).toEqual(['update', 'Update tags', 'Update']);
  });
  it('after a successful save the status is update, with a success message', () => {
    const s = run(
      initialSaveModalState(),
      { type: 'open', storedTags: [], bundles: options },
      { type: 'addTag', raw: 'Sale' },
      { type: 'submit' },
      { type: 'saved', message: 'The template was saved.', tags: ['sale'], bundles: options },
    );
    expect(s).toMatchObject({
      status: 'update',
      phase: 'saved',
      message: { tone: 'success', text: 'The template was saved.' },
    });
    expect(submitLabel(s)).toBe('Update');
  });
  it('a failed save stays open with a danger message and the status unchanged', () => {
    const s = run(
      initialSaveModalState(),
      { type: 'open', storedTags: [], bundles: [] },
      { type: 'addTag', raw: 'sale' },
      { type: 'submit' },
      { type: 'failed', message: 'This action is unauthorized.' },
    );
    expect(s).toMatchObject({
      status: 'save',
      phase: 'editing',
      message: { tone: 'danger', text: 'This action is unauthorized.' },
    });
    expect(canSubmit(s)).toBe(true);
  });
});

describe('tags', () => {
  it('refuses a duplicate with the spec message and ignores blanks', () => {
    const s = run(
      initialSaveModalState(),
      { type: 'addTag', raw: 'Sale' },
      { type: 'addTag', raw: '  ' },
      { type: 'addTag', raw: ' SALE' },
    );
    expect(s.tags).toEqual(['sale']);
    expect(s.tagError).toBe('Current tag is already added.');
    expect(run(s, { type: 'clearTagError' }).tagError).toBeNull();
  });
  it('cannot be sent without a tag, nor twice while saving', () => {
    const empty = initialSaveModalState();
    expect(canSubmit(empty)).toBe(false);
    expect(run(empty, { type: 'submit' }).phase).toBe('editing');
    const saving = run(empty, { type: 'addTag', raw: 'a' }, { type: 'submit' });
    expect(saving.phase).toBe('saving');
    expect(canSubmit(saving)).toBe(false);
    expect(run(saving, { type: 'addTag', raw: 'b' }).tags).toEqual(['a']);
  });
});

describe('bundles', () => {
  it('sends the selected bundles and new names; a known name picks that bundle', () => {
    const s = run(
      initialSaveModalState(),
      { type: 'open', storedTags: [], bundles: options },
      { type: 'toggleBundle', id: 'bundle-b' },
      { type: 'addBundleName', name: '  autumn ' },
      { type: 'addBundleName', name: 'Spring  sale' },
      { type: 'addBundleName', name: 'spring sale' },
    );
    expect(bundleChoices(s)).toEqual([{ id: 'bundle-a' }, { name: 'Spring sale' }]);
  });
});
