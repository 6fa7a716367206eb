/**
 * A dense `.gif` URL of an animated design (docs/export.md "Density"): the renderer plays its
 * GIFs' frames at 1× whatever the density, so the service asks for and keys the 1× image; the
 * `@2x.gif` and `.gif` URLs answer the same image from one draw.
 */
import { describe, expect, it } from 'vitest';
import { DesignDocumentSchema } from '#shared/design.ts';
import { createRenderService, type RenderServiceDeps } from '#functions/render/service.ts';

const animated = {
  designId: 'd1',
  teamId: 't1',
  version: 2,
  document: DesignDocumentSchema.parse({
    image_id: 'i',
    base_image_key: 'uploads/t1/party.gif',
    canvas_width: 900,
    canvas_height: 600,
  }),
};
const req = (rawPath: string) => ({ rawPath, rawQueryString: '', sourceIp: '1.2.3.4' });

function service() {
  const asked: unknown[] = [];
  const deps: RenderServiceDeps = {
    findDesign: async (id) => (id === 'anim' ? animated : undefined),
    teamCanExportPdf: async () => true,
    render: async (_d, _values, format, options) => {
      asked.push(options);
      return {
        body: Buffer.from(`${format}:${JSON.stringify(options)}`),
        contentType: 'image/gif',
      };
    },
    placeholder: async () => Buffer.from('placeholder'),
    store: { get: async () => undefined, put: async () => undefined },
    countView: () => undefined,
    publicUrl: 'https://cdn.example',
    timeoutMs: 5000,
  };
  return { svc: createRenderService(deps), asked };
}

describe("an animated design's dense GIF", () => {
  it('is its 1× GIF: drawn once at 1×, the same image at either URL', async () => {
    const { svc, asked } = service();
    const dense = await svc.handle(req('/r/anim@2x.gif'));
    const plain = await svc.handle(req('/r/anim.gif'));
    expect(dense.headers?.['content-type']).toBe('image/gif');
    expect(asked).toEqual([expect.not.objectContaining({ density: expect.anything() })]);
    expect(plain.headers?.['x-render-cache']).toBe('memory');
    expect(plain.body).toBe(dense.body);
  });
});
