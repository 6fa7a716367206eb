/**
 * The font faces the editor draws with: the same fallback stack the render page ships
 * (shared/scene/fonts.ts `FALLBACK_STACK`, functions/render/build-page.ts `FONT_PACKAGES`), from
 * the same @fontsource files, so the canvas measures and wraps text as the render URL does.
 * The sheets use `unicode-range`, so the browser downloads only the subsets a text needs.
 * Imported by the editor page only (the route is loaded on demand).
 *
 * The built-in fonts (Journal, …), the hosted families and the team's uploads are registered
 * family by family when a text snippet uses one (`loadFont`, through canvas/textFonts.ts), with
 * the render page's own `@font-face` rules. Their catalogue is a chunk of its own: its import
 * starts here, as the editor's chunk runs, so it overlaps the design request.
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
import { loadCatalogue } from '../../fonts/loadFont.ts';

loadCatalogue().catch((error: unknown) => console.error('the font catalogue did not load', error));
