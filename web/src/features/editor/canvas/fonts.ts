/**
 * The font faces the editor draws with: the same fallback stack the render page ships
 * (shared/scene/fonts.ts `FALLBACK_STACK`, functions/render/build-page.ts `FONT_PACKAGES`), from
 * the same @fontsource files, so the canvas measures and wraps text as the render URL does.
 * The sheets use `unicode-range`, so the browser downloads only the subsets a text needs.
 * Imported by the editor page only (the route is loaded on demand).
 *
 * The built-in fonts (Journal, …) and the hosted families are registered here too, with the
 * render page's own `@font-face` rules (web/src/features/fonts/loadFont.ts): nothing downloads
 * until a text snippet uses one.
 */
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/700.css';
import '@fontsource/noto-sans/400-italic.css';
import '@fontsource/noto-sans/700-italic.css';
import '@fontsource/noto-sans-arabic/400.css';
import '@fontsource/noto-sans-arabic/700.css';
import '@fontsource/noto-sans-hebrew/400.css';
import '@fontsource/noto-sans-hebrew/700.css';
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-sc/700.css';
import '@infolektuell/noto-color-emoji/index.css';
import { registerAlwaysAvailableFonts } from '../../fonts/loadFont.ts';

registerAlwaysAvailableFonts();
