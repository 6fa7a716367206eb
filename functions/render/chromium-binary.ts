/**
 * The Chromium binary of `@sparticuz/chromium`, unpacked once and checked (docs/operations.md
 * "Chromium's first unpack").
 *
 * The library unpacks `chromium.br`, `fonts.tar.br` and `swiftshader.tar.br` into the temp
 * folder on first use, and afterwards trusts any file named `chromium` there. A first start
 * stopped while it writes (Ctrl-C, a killed terminal, a harness timing out) leaves a truncated
 * binary behind, which every later start would launch and fail on with
 * `Target.setDiscoverTargets: Target closed`. It has no option to check or to unpack
 * atomically, so this module adds the least that works:
 * - one unpack at a time across processes (a lock file, `proper-lockfile`, stale after 20 s so a
 *   killed unpacker does not block the next start);
 * - a marker written only after the library's unpack has finished, naming the package version
 *   and the binary's size; an unpacked set without a matching marker (cut short, or from another
 *   version of the package) is removed and unpacked again;
 * - `discardUnpackedChromium()` for a binary that is complete but still cannot start, so the
 *   launcher can unpack once more before it gives up.
 */
import chromium from '@sparticuz/chromium';
import lockfile from 'proper-lockfile';
import { readFileSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the library unpacks (it uses `os.tmpdir()`, as this module does). */
const unpackDir = (): string => tmpdir();
const binaryPath = (): string => join(unpackDir(), 'chromium');
const markerPath = (): string => join(unpackDir(), 'chromium.unpacked.json');

/**
 * What the library unpacks besides the binary: the fonts folder (with `fonts.conf`), the
 * Amazon Linux libraries (Lambda only) and SwiftShader, whose presence it checks by
 * `libGLESv2.so` (node_modules/@sparticuz/chromium/build/lambdafs.js).
 */
const UNPACKED = ['chromium', 'fonts', 'al2023', 'libGLESv2.so', 'libEGL.so'];

let packageVersion: string | undefined;
/** The installed package's version ('unknown' where it cannot be read: the size check remains). */
function chromiumPackageVersion(): string {
  if (packageVersion === undefined) {
    try {
      // The package exports no package.json; it sits one folder above build/index.js.
      const entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
      packageVersion = (
        JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    } catch {
      packageVersion = 'unknown';
    }
  }
  return packageVersion;
}

/** The last unpack this process did: how long the library's unpack took, ms, and the binary's size. */
let unpacked: { ms: number; bytes: number } | undefined;

/**
 * The unpack this process did, if any: `ms` is the library's `executablePath()` into an empty
 * temp folder (chromium, fonts and SwiftShader inflated side by side), `bytes` the binary's size.
 * Undefined when the binary was already there (a re-init). For the bench's fresh cold start
 * (docs/performance.md "Method").
 */
export function lastUnpack(): { ms: number; bytes: number } | undefined {
  return unpacked;
}

interface Marker {
  version: string;
  /** Size of the unpacked binary, bytes. */
  bytes: number;
}

async function markerMatches(): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(markerPath(), 'utf8')) as Marker;
    const { size } = await stat(binaryPath());
    return marker.version === chromiumPackageVersion() && marker.bytes === size;
  } catch {
    return false;
  }
}

async function removeUnpacked(): Promise<void> {
  await rm(markerPath(), { force: true });
  await Promise.all(
    UNPACKED.map((name) => rm(join(unpackDir(), name), { recursive: true, force: true })),
  );
}

/**
 * The path of a complete, checked Chromium binary: `CHROMIUM_PATH` when given (used as it is),
 * else `@sparticuz/chromium`'s, unpacked into the temp folder if it is missing, cut short or of
 * another package version. Safe to call from several processes at once.
 * @param override a binary to use instead (the `CHROMIUM_PATH` setting)
 * @throws Error if the lock cannot be had within about 2 minutes, or the unpack fails (disk full)
 */
export async function chromiumExecutable(override?: string): Promise<string> {
  if (override) return override;
  return withUnpackLock(async () => {
    if (!(await markerMatches())) {
      await removeUnpacked();
      const started = performance.now();
      const path = await chromium.executablePath();
      const { size } = await stat(path);
      unpacked = { ms: performance.now() - started, bytes: size };
      const marker: Marker = { version: chromiumPackageVersion(), bytes: size };
      await writeFile(markerPath(), JSON.stringify(marker));
    }
    return binaryPath();
  });
}

/**
 * Forgets the unpacked binary (marker and files), so the next `chromiumExecutable()` unpacks it
 * again. For a binary that passed the size check but does not start.
 */
export async function discardUnpackedChromium(): Promise<void> {
  await withUnpackLock(removeUnpacked);
}

/**
 * Runs `fn` holding the unpack lock: one process unpacks or removes at a time; a lock whose
 * holder died is taken over after 20 s.
 */
async function withUnpackLock<T>(fn: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(unpackDir(), {
    lockfilePath: join(unpackDir(), 'chromium.unpack.lock'),
    realpath: false,
    stale: 20_000,
    update: 5_000,
    retries: { retries: 1200, minTimeout: 100, maxTimeout: 100 },
  });
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
