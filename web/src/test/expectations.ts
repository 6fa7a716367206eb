/**
 * Assertions of what a user (and a screen reader) perceives, for the component tests: a
 * field's error, a busy button. They read the ARIA the components write (docs/adr/0047-forms.md
 * "Forms": "`aria-invalid` and `aria-describedby` pointing at the error"; the submit button "says
 * it is busy with `aria-disabled`"), never class names.
 */
import { expect } from 'vitest';

/**
 * The text of what `element` is described by (`aria-describedby`, its ids in order, joined by a
 * space), or '' when nothing describes it.
 */
export function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
    .join(' ');
}

/**
 * Whether `field` is marked `aria-invalid`; a group (fieldset) when it is, or when each of its
 * controls is (./FormFields.tsx `FormCheckboxGroup` marks the checkboxes).
 */
function isInvalid(field: HTMLElement): boolean {
  if (field.getAttribute('aria-invalid') === 'true') return true;
  if (field.tagName !== 'FIELDSET') return false;
  const controls = [...field.querySelectorAll('input, select, textarea')];
  return controls.length > 0 && controls.every((c) => c.getAttribute('aria-invalid') === 'true');
}

/**
 * Asserts that `field` shows `message` as its error: it is `aria-invalid`, its description
 * holds the message, and the message is shown next to it: after it, with no other control in
 * between (inside a group's fieldset, after its checkboxes).
 * @param field an input, or a fieldset for a group of checkboxes or radios.
 */
export function expectFieldError(field: HTMLElement, message: string): void {
  expect(isInvalid(field), 'the field is marked invalid').toBe(true);
  expect(descriptionOf(field), 'the field is described by its error').toContain(message);
  const error = (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .find((element) => element?.textContent?.includes(message));
  if (!error) throw new Error(`no element describing the field says “${message}”`);
  const after = (a: Node, b: Node) =>
    (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  const between = [...document.querySelectorAll('input, select, textarea, button')].filter(
    (control) =>
      !field.contains(control) &&
      control !== field &&
      after(control, field) &&
      after(error, control),
  );
  expect(after(error, field), 'the error follows its field').toBe(true);
  expect(between, 'no other control between the field and its error').toEqual([]);
}

/**
 * Asserts that `field` shows no error: not `aria-invalid` (the components set it with every
 * error; a group as for `expectFieldError`), and, when given, `message` not in its description.
 */
export function expectNoFieldError(field: HTMLElement, message?: string): void {
  expect(isInvalid(field), 'the field is not marked invalid').toBe(false);
  if (message) expect(descriptionOf(field)).not.toContain(message);
}

/**
 * Asserts that `button` says a request is under way: `aria-disabled` (it keeps focus, unlike
 * `disabled`) with its busy label.
 */
export function expectBusy(button: HTMLElement, busyLabel: string): void {
  expect(button.getAttribute('aria-disabled'), 'the button is aria-disabled').toBe('true');
  expect(button.textContent?.trim()).toBe(busyLabel);
}

/**
 * Asserts that focus is on `element` or on a container of it that took focus for it (a notice
 * wrapper with `tabIndex={-1}`), not left on the page's body.
 */
export function expectFocusOn(element: HTMLElement): void {
  const focused = document.activeElement;
  expect(focused, 'focus is on something, not the page').not.toBe(document.body);
  expect(focused?.contains(element), 'focus is on the element or its container').toBe(true);
}
