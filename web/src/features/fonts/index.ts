/**
 * Fonts in the SPA (docs/fonts.md): the font picker of the text toolbar and the loader that makes
 * a family drawable on the editor's canvas (docs/fonts.md).
 */
export { FontPicker, PRO_ONLY_MESSAGE, type FontPickerProps } from './FontPicker.tsx';
export {
  loadFont,
  loadCatalogue,
  registerFont,
  FontLoadError,
  FONT_LOAD_FAILED,
} from './loadFont.ts';
