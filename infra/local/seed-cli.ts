/**
 * `npm run seed`: starts the local services on the `.local/` data, seeds if empty, and stops.
 */
import { startLocalStack } from './stack.ts';

const stack = await startLocalStack({
  persist: true,
  web: 'none',
  warmChromium: false,
  port: 0,
  seed: false,
});
try {
  const { seed } = await import('./seed.ts');
  const seeded = await seed((l) => console.log(l));
  console.log(
    seeded ? 'Seeded.' : 'Already seeded: the demo user exists. Delete .local/ to start over.',
  );
} finally {
  await stack.stop();
}
