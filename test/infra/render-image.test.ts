/**
 * The render function as a container image with Chromium stored unpacked
 * (docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md "Fresh cold start: Chromium stored
 * unpacked"), behind the `renderImage` context flag: the same function (memory, timeout, /tmp,
 * CPU, tracing, role, alias) with `PackageType: Image` and no layer; without the flag, the zip.
 * The image itself is not built here (synth only hashes its context).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/handler-function.ts';
import { RENDER_DOCKERFILE, RENDER_IMAGE_CONTEXT_FILES } from '#infra/constructs/render.ts';
import { synthesise, type Resources } from './synth.ts';

const image = synthesise({ renderImage: 'true' });
const zip = synthesise();
afterAll(() => {
  image.remove();
  zip.remove();
});

/** The render function's properties (its `FEATURE` is `render`). */
function renderFunction(resources: Resources): Record<string, unknown> {
  const found = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::Lambda::Function' &&
      (r.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables
        ?.FEATURE === 'render',
  );
  expect(found).toHaveLength(1);
  return found[0]!.Properties;
}

describe('the render function as a container image', () => {
  it('is an image function with the zip function’s settings and no layer', () => {
    const fn = renderFunction(image.resources);
    const before = renderFunction(zip.resources);
    expect(fn.PackageType).toBe('Image');
    expect(fn.Code).toHaveProperty('ImageUri');
    expect(fn.Layers).toBeUndefined();
    expect(fn.Handler).toBeUndefined();
    expect(fn.Runtime).toBeUndefined();
    for (const key of [
      'MemorySize',
      'Timeout',
      'EphemeralStorage',
      'Architectures',
      'TracingConfig',
      'Role',
    ])
      expect(fn[key], key).toEqual(before[key]);
    // The render URL still invokes the `live` alias of its current version.
    const aliases = Object.values(image.resources).filter((r) => r.Type === 'AWS::Lambda::Alias');
    expect(aliases.map((a) => a.Properties.Name)).toContain('live');
  });

  it('stays the zip with the browser layer without the flag', () => {
    const fn = renderFunction(zip.resources);
    expect(fn.PackageType).toBeUndefined();
    expect(fn.Runtime).toBe('nodejs24.x');
    expect(fn.Layers).toHaveLength(1);
  });

  it('builds from a Dockerfile that stores Chromium unpacked and points the renderer at it', () => {
    const dockerfile = readFileSync(join(PROJECT_ROOT, RENDER_DOCKERFILE), 'utf8');
    expect(dockerfile).toMatch(/^FROM public\.ecr\.aws\/lambda\/nodejs:24$/m);
    expect(dockerfile).toContain('TMPDIR=/opt/chromium');
    expect(dockerfile).toMatch(/ENV CHROMIUM_PATH=\/opt\/chromium\/chromium/);
    expect(dockerfile).toContain('CMD ["index.handler"]');
    // Chromium is unpacked before the bundle is copied, so a code change reuses its layer.
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime.indexOf('TMPDIR=/opt/chromium')).toBeGreaterThan(0);
    expect(runtime.indexOf('TMPDIR=/opt/chromium')).toBeLessThan(
      runtime.indexOf('COPY --from=build'),
    );
    // Every path it copies from the context is one the asset keeps.
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(' '),
    );
    for (const path of copied) expect(RENDER_IMAGE_CONTEXT_FILES, path).toContain(path);
  });
});
