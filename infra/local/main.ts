/**
 * `npm start` (and `npm run preview` with `--preview`): builds what it serves when missing or
 * stale (builds.ts), runs the product on one port with seeded demo data, prints the URL, the
 * demo logins and the demo render URL, and leaves no Java or Chromium process behind on Ctrl-C.
 */
import { relative } from 'node:path';
import { startLocalStack } from './stack.ts';
import { DEMO_LOGINS, DEMO_PUBLIC_ID } from './seed.ts';
import { killChildren } from './services.ts';
import { ensureBuilds } from './builds.ts';

const preview = process.argv.includes('--preview');
/** A folder as the user would type it: relative to where they ran `npm start` when inside it. */
const shown = (dir: string): string => {
  const rel = relative(process.cwd(), dir);
  return rel.startsWith('..') || rel === '' ? dir : `${rel}/`;
};
const started = Date.now();

process.on('exit', killChildren);

try {
  await ensureBuilds({ spa: preview, log: (l) => console.log(l) });
  let stopping = false;
  // A DynamoDB Local that dies is started again; one that cannot be stops everything.
  let stop = (_why: string, _code?: number) => undefined as void;
  const stack = await startLocalStack({
    persist: true,
    web: preview ? 'preview' : 'dev',
    log: (l) => console.log(l),
    onDynamoDeath: (line, fatal) => {
      console.error(line);
      if (fatal) stop('DynamoDB Local is down', 1);
    },
  });
  stop = (why: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping…`);
    void stack.stop().finally(() => process.exit(code));
    setTimeout(() => process.exit(code), 5000).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => stop(signal));

  console.log(`
PicSnippets is running (${((Date.now() - started) / 1000).toFixed(1)} s${preview ? ', built SPA' : ', Vite hot reload'})

  App:         ${stack.url}
  Health:      ${stack.url}/api/health
  Demo render: ${stack.url}/r/${DEMO_PUBLIC_ID}.jpg?first_name=Ana

  Demo logins (local only):
${DEMO_LOGINS.map((l) => `    ${l.email.padEnd(20)} ${l.password}   ${l.role}`).join('\n')}

  Data is kept in ${shown(stack.dataDir)} (delete it to start over). Ctrl-C stops everything.
`);
} catch (error) {
  console.error(`\nCould not start the local stack:\n${(error as Error).message}`);
  killChildren();
  process.exit(1);
}
