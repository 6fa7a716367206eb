/**
 * A screenshot sticker's live web crop (docs/editor.md "Live web crop"; docs/web-crops.md):
 * **Show one element of the page**, then its **CSS selector**, the **URL template** (its
 * `{{fields}}` listed as the parameters they add to the design) and the **Refresh** interval.
 * Every change is the `setWebCrop` command (one undo step per field; typing merges), checked by
 * the shared schema the API checks with; a selector the browser cannot read is refused here too.
 * A refused value stays in its field with its message and is not saved. Under them, the state of
 * the element's capture for the canvas (`CropPreview`).
 */
import { useEffect, useState } from 'react';
import type { Sticker } from '#shared/design.ts';
import { WEB_CROP_REFRESH_S, type WebCrop } from '#shared/scene/web-crop.ts';
import { call, isApiError, GENERIC_ERROR_MESSAGE } from '../../../api/client.ts';
import { runCommand } from '../commands.ts';
import { cropParameters, cropPreviewRequest, type WebCropPatch } from '../document/webCrop.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import '../countdown.css';
import { Group, SettingInput } from './CountdownPanel.tsx';
import { useSettingsChange } from './useSettingsChange.ts';

/** The message for a selector the browser's own selector engine refuses. */
export const UNREADABLE_SELECTOR = 'This is not a CSS selector the browser can read.';

/** Whether the browser reads `selector` as a CSS selector (a syntax error throws). */
function readableSelector(selector: string): boolean {
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

/** The crop's fields, once it is on (or being switched on, before its selector is typed). */
function CropFields({ sticker, crop }: { sticker: Sticker; crop: WebCrop | null }) {
  const run = useSettingsChange('setWebCrop', sticker.uuid);
  const change = (patch: WebCropPatch): Record<string, string> | null =>
    patch.selector !== undefined && !readableSelector(patch.selector.trim() || '*')
      ? { selector: UNREADABLE_SELECTOR }
      : run(patch);
  const fields = cropParameters(crop?.url_template ?? null);
  return (
    <>
      <SettingInput
        label="CSS selector"
        field="selector"
        value={crop?.selector ?? ''}
        onValue={(selector) => change({ selector })}
      />
      {crop === null && (
        <p className="small muted countdown-panel__note">
          The element to show, such as <code>#price</code> or <code>.score</code>: the first one
          that matches.
        </p>
      )}
      {crop !== null && (
        <>
          <SettingInput
            label="URL template (empty: the sticker's page)"
            type="url"
            field="url_template"
            width="wide"
            value={crop.url_template ?? ''}
            onValue={(v) => change({ url_template: v.trim() === '' ? null : v })}
          />
          <p aria-live="polite" className="small muted countdown-panel__note">
            {fields.length === 0
              ? 'Write {{name}} after the site’s address for a page per recipient, such as https://shop.example/p/{{sku}}.'
              : `Parameters this adds to the design: ${fields.join(', ')}. Each value is encoded into its own part of the URL.`}
          </p>
          <SettingInput
            label={`Refresh (seconds, ${WEB_CROP_REFRESH_S.min}–${WEB_CROP_REFRESH_S.max})`}
            type="number"
            field="refresh_s"
            width="narrow"
            value={String(crop.refresh_s)}
            onValue={(v) => change({ refresh_s: v.trim() === '' ? 0 : Number(v) })}
          />
        </>
      )}
    </>
  );
}

/** How long the crop must stay unchanged before its element is captured, ms (typing a selector). */
const CROP_PREVIEW_DELAY_MS = 800;

/** The capture's state shown under the fields. */
type PreviewState = { kind: 'idle' } | { kind: 'error'; key: string; message: string };

/**
 * Captures the crop's element for the canvas (docs/editor.md "Live web crop"): once the crop has
 * stayed the same for {@link CROP_PREVIEW_DELAY_MS}, the server takes it the render's way
 * (`POST /api/pic-snippet/{id}/web-crop-preview`) and the canvas draws it in place of the
 * placeholder; a capture already kept is not asked again. Says while it loads, and why when
 * nothing could be captured.
 */
function CropPreview({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  const designId = useEditor((s) => s.meta?.id ?? null);
  const request = cropPreviewRequest(sticker);
  const key = request?.key ?? null;
  const kept = useEditor((s) => (key ? s.cropPreviews[key] !== undefined : false));
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });
  useEffect(() => {
    if (!request || !designId || kept) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const { key: wanted, ...body } = request;
      call('POST /api/pic-snippet/{id}/web-crop-preview', {
        params: { id: designId },
        body,
        signal: controller.signal,
      }).then(
        ({ image }) => {
          store.getState().setCropPreview(wanted, image);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({
            kind: 'error',
            key: wanted,
            message: isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE,
          });
        },
      );
    }, CROP_PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `request` is rebuilt each render; its key names everything it holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, designId, kept, store]);
  if (!request)
    return (
      <p className="small muted countdown-panel__note">
        Give the screenshot a fallback page to see the element on the canvas.
      </p>
    );
  // An error is shown for the crop it was about only: a changed selector tries again.
  if (state.kind === 'error' && state.key === key)
    return (
      <p role="alert" className="small countdown-panel__note web-crop-panel__error">
        {state.message}
      </p>
    );
  return (
    <p role="status" className="small muted countdown-panel__note">
      {kept
        ? 'The element was captured from the fallback page.'
        : 'Capturing the element from the fallback page…'}
    </p>
  );
}

/** The live crop of a selected screenshot sticker: the switch and, when on, its fields. */
export function WebCropPanel({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  /** Switched on with no selector typed yet: the fields show, nothing is saved. */
  const [starting, setStarting] = useState(false);
  const on = sticker.crop !== null || starting;
  return (
    <div className="countdown-panel web-crop-panel" data-testid="web-crop-panel">
      <Group title="Live crop">
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={on}
            onChange={(e) => {
              setStarting(e.target.checked);
              if (!e.target.checked && sticker.crop !== null)
                runCommand(store, 'setWebCrop', { id: sticker.uuid, patch: null });
            }}
          />{' '}
          Show one element of the page
        </label>
        {on && <CropFields sticker={sticker} crop={sticker.crop} />}
        {sticker.crop !== null && <CropPreview sticker={sticker} />}
      </Group>
    </div>
  );
}
