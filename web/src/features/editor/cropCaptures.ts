/**
 * The captures of the open design's live crops (docs/editor.md "Live web crop"; docs/web-crops.md
 * "In the editor"), asked for every screenshot sticker with a crop, whether its panel is open or
 * not: at once for the crops the design opens with, and {@link CROP_CAPTURE_DELAY_MS} after a crop
 * changed to a page, selector or device not kept yet (a selector being typed asks once, when the
 * typing pauses). Each capture is `POST /api/pic-snippet/{id}/web-crop-preview`; the image goes to
 * the ui slice's `cropPreviews` (the canvas draws it), the server's reason to `cropFailures` (the
 * panel shows it, the canvas keeps the placeholder).
 *
 * Bounded for the server's allowance (120 previews a team per 15 minutes,
 * functions/designs/web-crop-preview.ts): a kept capture is never asked again (an undo finds it
 * kept), a failed one not until its crop changes, at most {@link MAX_CROPS_IN_FLIGHT} at a time,
 * each given {@link CROP_CAPTURE_TIMEOUT_MS}, only the design's first `MAX_CROP_PREVIEWS` crops
 * (the store keeps that many: asking for more would push out one still drawn, to be asked again,
 * forever), and after a 429 the waiting ones are not sent. Tests:
 * web/src/features/editor/cropCaptures.test.ts, test/e2e/editor-web-crop.test.ts.
 */
import type { DesignDocument } from '#shared/design.ts';
import { call, isApiError, GENERIC_ERROR_MESSAGE } from '../../api/client.ts';
import { cropPreviewRequest, type CropPreviewRequest } from './document/webCrop.ts';
import { MAX_CROP_PREVIEWS } from './store/uiSlice.ts';
import type { EditorStore } from './store/index.ts';

/** How long a crop must stay unchanged before its element is captured, ms (a selector being typed). */
const CROP_CAPTURE_DELAY_MS = 800;

/** Captures asked at the same time: each holds a page in the screenshot browser for up to 6 s. */
const MAX_CROPS_IN_FLIGHT = 2;

/**
 * How long one capture may take before it counts as failed, ms: the server's 6 s budget
 * (functions/screenshot/capture.ts `SCREENSHOT_BUDGET_MS`) with room for a cold start.
 */
const CROP_CAPTURE_TIMEOUT_MS = 30_000;

/**
 * The captures the design's crops need, each page, selector and device once, in the order of the
 * stickers, at most `MAX_CROP_PREVIEWS` (the store's bound); a crop past them keeps its
 * placeholder. A sticker without a fallback page has none (docs/editor.md "Live web crop").
 */
export function wantedCaptures(design: DesignDocument | null): CropPreviewRequest[] {
  const wanted = new Map<string, CropPreviewRequest>();
  for (const sticker of design?.graphics_data ?? []) {
    const request = cropPreviewRequest(sticker);
    if (request && !wanted.has(request.key)) wanted.set(request.key, request);
    if (wanted.size === MAX_CROP_PREVIEWS) break;
  }
  return [...wanted.values()];
}

/**
 * Starts asking for the captures of the store's design (see the module comment) until the
 * returned function is called, which cancels the waiting ones and aborts those on their way.
 * @param options.delayMs the pause after a change before a new crop is asked for, ms
 * @param options.timeoutMs how long one capture may take before it fails, ms
 */
export function mountCropCaptures(
  store: EditorStore,
  {
    delayMs = CROP_CAPTURE_DELAY_MS,
    timeoutMs = CROP_CAPTURE_TIMEOUT_MS,
  }: { delayMs?: number; timeoutMs?: number } = {},
): () => void {
  const controller = new AbortController();
  /** Crops waiting for the pause after a change, by key. */
  const pausing = new Map<string, ReturnType<typeof setTimeout>>();
  /** Crops waiting for a free place, in order. */
  const queue: CropPreviewRequest[] = [];
  const inFlight = new Set<string>();
  let wanted = new Set<string>();
  let opening = true;

  const settled = (key: string) => {
    const s = store.getState();
    return s.cropPreviews[key] !== undefined || s.cropFailures[key] !== undefined;
  };

  const fail = (keys: string[], message: string) => {
    const current = store.getState().cropFailures;
    const fresh = keys.filter((k) => wanted.has(k) && current[k] !== message);
    if (fresh.length > 0)
      store
        .getState()
        .setCropFailures({ ...current, ...Object.fromEntries(fresh.map((k) => [k, message])) });
  };

  function pump(): void {
    while (inFlight.size < MAX_CROPS_IN_FLIGHT && queue.length > 0) {
      const request = queue.shift()!;
      if (!wanted.has(request.key) || settled(request.key)) continue;
      void capture(request);
    }
  }

  async function capture({ key, ...body }: CropPreviewRequest): Promise<void> {
    const id = store.getState().meta?.id;
    if (!id) return;
    inFlight.add(key);
    // Its own signal: aborted when the captures stop, or past its time.
    const own = new AbortController();
    const stop = () => own.abort();
    controller.signal.addEventListener('abort', stop);
    const timer = setTimeout(stop, timeoutMs);
    try {
      const { image } = await call('POST /api/pic-snippet/{id}/web-crop-preview', {
        params: { id },
        body,
        signal: own.signal,
      });
      // Kept even when the crop changed meanwhile: an undo back to it finds it.
      if (!controller.signal.aborted) store.getState().setCropPreview(key, image, wanted);
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE;
      // Past the team's allowance: the waiting crops would be refused the same way.
      const refused = isApiError(error) && error.status === 429;
      fail(refused ? [key, ...queue.splice(0).map((r) => r.key)] : [key], message);
    } finally {
      clearTimeout(timer);
      controller.signal.removeEventListener('abort', stop);
      inFlight.delete(key);
      if (!controller.signal.aborted) pump();
    }
  }

  /** Brings the waiting crops in step with the design's. */
  function sync(): void {
    const requests = wantedCaptures(store.getState().design);
    wanted = new Set(requests.map((r) => r.key));
    for (const [key, timer] of pausing) {
      if (wanted.has(key)) continue;
      clearTimeout(timer);
      pausing.delete(key);
    }
    // A failure is forgotten once its crop is gone, so coming back to it (an undo) tries again.
    const failures = store.getState().cropFailures;
    if (Object.keys(failures).some((k) => !wanted.has(k)))
      store
        .getState()
        .setCropFailures(
          Object.fromEntries(Object.entries(failures).filter(([k]) => wanted.has(k))),
        );
    for (const request of requests) {
      const { key } = request;
      if (settled(key) || inFlight.has(key) || pausing.has(key)) continue;
      if (queue.some((r) => r.key === key)) continue;
      if (opening) {
        queue.push(request);
        continue;
      }
      pausing.set(
        key,
        setTimeout(() => {
          pausing.delete(key);
          queue.push(request);
          pump();
        }, delayMs),
      );
    }
    opening = false;
    pump();
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.meta?.id !== prev.meta?.id) opening = true;
    if (
      s.design !== prev.design ||
      s.meta?.id !== prev.meta?.id ||
      s.cropPreviews !== prev.cropPreviews ||
      s.cropFailures !== prev.cropFailures
    )
      sync();
  });
  sync();
  return () => {
    unsubscribe();
    controller.abort();
    for (const timer of pausing.values()) clearTimeout(timer);
    pausing.clear();
    queue.length = 0;
  };
}
