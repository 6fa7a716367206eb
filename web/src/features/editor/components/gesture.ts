/**
 * Pointer gestures on a control (a slider, a colour picker): everything from pointer down to
 * pointer up, wherever the pointer is released, is one undo step (store history gestures).
 */
import type { EditorStore } from '../store/index.ts';

/**
 * Opens a gesture now and closes it when the pointer is released or cancelled anywhere on the
 * page. Use as a control's `onPointerDown`.
 */
export function startPointerGesture(store: EditorStore): void {
  store.getState().beginGesture();
  const end = () => {
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    store.getState().endGesture();
  };
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}
