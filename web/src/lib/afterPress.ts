/**
 * Runs `fn` now, or, when a mouse or touch press is under way, once it is released and its
 * click has been handled.
 *
 * For changes that move the layout on `blur`: pressing a control below a field blurs the
 * field first; if the field's error appeared at once, the control would move away before the
 * button is released and the click would be lost.
 */
export function afterPress(fn: () => void): void {
  if (document.querySelector(':active') === null) {
    fn();
    return;
  }
  window.addEventListener('mouseup', () => window.setTimeout(fn, 0), {
    once: true,
    capture: true,
  });
}
