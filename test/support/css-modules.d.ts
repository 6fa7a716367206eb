/**
 * CSS imports, as Vite's client types (`vite/client`, web/tsconfig.json) declare them: the root
 * project type-checks SPA modules that unit tests import, among them the editor's on-demand
 * font sheets (web/src/features/editor/canvas/textFonts.ts `loadCjkFaces`).
 */
declare module '*.css' {}
