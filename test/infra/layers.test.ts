/**
 * The Lambda layers built from node_modules: what they hold, and that the binaries in them are
 * for the CPU the stack gives their functions (a wrong-CPU sharp or Chromium only fails in AWS).
 */
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBrotliDecompress } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  copyLayerContent,
  dependencyClosure,
  installedSharpArchitectures,
  type CpuArch,
} from '#infra/constructs/node-modules-layer.ts';
import { PROJECT_ROOT } from '#infra/constructs/handler-function.ts';
import { CHROMIUM_ARCH, RENDER_EXTERNAL_MODULES } from '#infra/constructs/render.ts';
import { chooseApiArch } from '#infra/stack.ts';

const scratch = mkdtempSync(join(tmpdir(), 'picsnippets-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** ELF e_machine of the first bytes of a brotli-compressed binary. */
async function elfMachine(file: string): Promise<number> {
  const head = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const input = createReadStream(file, { end: 256 * 1024 });
    const inflate = createBrotliDecompress();
    inflate.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).length >= 64) {
        input.destroy();
        inflate.destroy();
        resolve(Buffer.concat(chunks));
      }
    });
    inflate.on('error', reject);
    input.pipe(inflate);
  });
  expect(head.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  return head.readUInt16LE(18);
}

const E_MACHINE: Record<CpuArch, number> = { x64: 0x3e, arm64: 0xb7 };

/** A fake project whose node_modules holds the given package.json files. */
function fakeProject(packages: Record<string, object>): string {
  const root = mkdtempSync(join(scratch, 'project-'));
  for (const [name, pkg] of Object.entries(packages)) {
    const dir = join(root, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...pkg }));
  }
  return root;
}

describe('render layer', () => {
  it("ships @sparticuz/chromium's Chromium for the render Lambda's CPU", async () => {
    const bin = join(PROJECT_ROOT, 'node_modules', '@sparticuz', 'chromium', 'bin');
    expect(await elfMachine(join(bin, 'chromium.br'))).toBe(E_MACHINE[CHROMIUM_ARCH]);
  });

  it('holds chromium, puppeteer-core and sharp with their dependencies', () => {
    const dirs = dependencyClosure(PROJECT_ROOT, RENDER_EXTERNAL_MODULES, CHROMIUM_ARCH).map((d) =>
      d.slice(PROJECT_ROOT.length),
    );
    for (const name of RENDER_EXTERNAL_MODULES) expect(dirs).toContain(`node_modules/${name}`);
    expect(dirs).toContain(`node_modules/@img/sharp-linux-${CHROMIUM_ARCH}`);
    expect(dirs).toContain('node_modules/ws');
  });
});

describe('sharp layer', () => {
  it('copies sharp and its Linux binary under nodejs/node_modules, without types or maps', () => {
    const arch = chooseApiArch();
    const out = join(scratch, 'sharp');
    copyLayerContent(PROJECT_ROOT, ['sharp'], arch, out);
    const modules = join(out, 'nodejs', 'node_modules');
    expect(existsSync(join(modules, 'sharp', 'package.json'))).toBe(true);
    expect(existsSync(join(modules, '@img', `sharp-linux-${arch}`, 'package.json'))).toBe(true);
    expect(existsSync(join(modules, '@img', `sharp-libvips-linux-${arch}`))).toBe(true);
    const files = readdirSync(modules, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.d.ts') || f.endsWith('.map'))).toEqual([]);
    expect(files.some((f) => f.includes('darwin') || f.includes('win32'))).toBe(false);
  });

  it('picks the API CPU from the installed sharp binaries, ARM64 first', () => {
    const img = (cpu: string): Record<string, object> => ({
      [`@img/sharp-linux-${cpu}`]: { os: ['linux'], cpu: [cpu] },
      [`@img/sharp-libvips-linux-${cpu}`]: { os: ['linux'], cpu: [cpu] },
    });
    expect(chooseApiArch(fakeProject({ ...img('x64'), ...img('arm64') }))).toBe('arm64');
    expect(chooseApiArch(fakeProject(img('x64')))).toBe('x64');
    expect(() => chooseApiArch(fakeProject({}))).toThrow(/npm install --os=linux/);
    expect(installedSharpArchitectures(PROJECT_ROOT)).toContain(chooseApiArch());
  });

  it('keeps packages for another OS, CPU or libc out, and fails on a missing dependency', () => {
    const root = fakeProject({
      top: {
        dependencies: { dep: '1' },
        optionalDependencies: { 'bin-x64': '1', 'bin-mac': '1', 'bin-musl': '1', absent: '1' },
      },
      dep: {},
      'bin-x64': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
      'bin-mac': { os: ['darwin'], cpu: ['arm64'] },
      'bin-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
    });
    const names = (arch: CpuArch): string[] =>
      dependencyClosure(root, ['top'], arch).map((d) =>
        d.slice(join(root, 'node_modules').length + 1),
      );
    expect(names('x64')).toEqual(['bin-x64', 'dep', 'top']);
    expect(names('arm64')).toEqual(['dep', 'top']);
    expect(() => dependencyClosure(root, ['nope'], 'x64')).toThrow(/"nope" is not installed/);
  });
});
