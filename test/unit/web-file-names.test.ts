/**
 * One file naming convention in web/src (docs/adr/0048-file-names-in-web-src.md "File names in
 * web/src"): a module is camelCase (`imagesApi.ts`, `usePagedQuery.ts`), a React component's file
 * is PascalCase and named after it (`KioskPage.tsx`), and the few `.tsx` files that hold no
 * component are camelCase: the entry (`main.tsx`), the router (`router.tsx`) and hooks that return
 * elements (`use….tsx`). A component test is named after what it tests, plus `.test`
 * (`Modal.test.tsx`, docs/testing.md "Adding a test"), and so are the test helpers' modules
 * (`test/setup.ts`, `test/msw.tsx`).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = new URL('../../web/src/', import.meta.url).pathname;
const MODULE = /^[a-z][a-zA-Z0-9]*(?:\.d)?\.ts$/;
const COMPONENT = /^[A-Z][a-zA-Z0-9]*\.tsx$/;
const CAMEL_TSX = /^(?:main|router|use[A-Z][a-zA-Z0-9]*)\.tsx$/;

/** Every file under `dir`, as paths relative to web/src (the tree is small: a few hundred). */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [relative(ROOT, join(dir, entry.name))],
  );
}

it('names every web/src module camelCase and every component file PascalCase', () => {
  const wrong = files(ROOT).filter((path) => {
    const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.test(?=\.tsx?$)/, '');
    if (name.endsWith('.tsx')) return !COMPONENT.test(name) && !CAMEL_TSX.test(name);
    if (name.endsWith('.ts')) return !MODULE.test(name);
    return false;
  });
  expect(wrong, 'rename to camelCase (modules) or PascalCase (components)').toEqual([]);
});
