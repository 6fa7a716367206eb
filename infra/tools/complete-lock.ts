/**
 * `npx tsx infra/tools/complete-lock.ts`: adds to package-lock.json the optional platform
 * bindings of `oxc-parser` (knip) and `unrs-resolver` (eslint-plugin-import-x) that the registry
 * mirror this project is built behind does not serve (it answers 404 for darwin, win32, android,
 * … builds). `npm install` then leaves them out of the lock, and `npm ci` refuses a lock that
 * does not list every optional dependency. On Linux those packages are skipped by their
 * `os`/`cpu` fields anyway, so an entry with the version and platform is all npm needs.
 * Run it after `npm install` changes either package, then `npm install --package-lock-only` to
 * let npm order the entries (docs/operations.md "The lock file").
 */
import { readFileSync, writeFileSync } from 'node:fs';

type Entry = Record<string, unknown> & { optionalDependencies?: Record<string, string> };
const PARENTS = ['node_modules/oxc-parser', 'node_modules/unrs-resolver'];
const LIBC: Record<string, string> = {
  gnu: 'glibc',
  gnueabihf: 'glibc',
  musl: 'musl',
  musleabihf: 'musl',
};

const path = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, Entry> };
let added = 0;
for (const parent of PARENTS) {
  for (const [dep, version] of Object.entries(lock.packages[parent]?.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (lock.packages[key]) continue;
    // `@oxc-parser/binding-darwin-arm64`, `@unrs/resolver-binding-linux-arm-gnueabihf`,
    // `…-wasm32-wasi`
    const [os, cpu, libc] = dep.replace(/^.*binding-/, '').split('-');
    lock.packages[key] = {
      version,
      dev: true,
      license: 'MIT',
      optional: true,
      ...(os === 'wasm32' ? { cpu: ['wasm32'] } : { os: [os], ...(cpu ? { cpu: [cpu] } : {}) }),
      ...(libc && LIBC[libc] ? { libc: [LIBC[libc]] } : {}),
    };
    added += 1;
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} optional bindings added to ${path}`);
