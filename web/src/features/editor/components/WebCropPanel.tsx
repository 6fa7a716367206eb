/**
 * A screenshot sticker's live web crop (docs/editor.md "Live web crop"; docs/web-crops.md):
 * **Show one element of the page**, then its **CSS selector**, the **URL template** (its
 * `{{fields}}` listed as the parameters they add to the design) and the **Refresh** interval.
 * Every change is the `setWebCrop` command (one undo step per field; typing merges), checked by
 * the shared schema the API checks with; a selector the browser cannot read is refused here too.
 * A refused value stays in its field with its message and is not saved. Under them, the state of
 * the element's capture for the canvas (`CropPreview`; cropCaptures.ts asks for it).
 */
import { useState } from 'react';
import type { Sticker } from '#shared/design.ts';
import { WEB_CROP_REFRESH_S, type WebCrop } from '#shared/scene/web-crop.ts';
import { runCommand } from '../commands.ts';
import { cropParameters, cropPreviewRequest, type WebCropPatch } from '../document/webCrop.ts';
import { wantedCaptures } from '../cropCaptures.ts';
import { MAX_CROP_PREVIEWS } from '../store/uiSlice.ts';
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

/**
 * The state of the crop's capture for the canvas (docs/editor.md "Live web crop"; the captures
 * are asked for by cropCaptures.ts for every crop of the design, panel open or not): capturing,
 * captured, or why nothing could be (the canvas then keeps the placeholder).
 */
function CropPreview({ sticker }: { sticker: Sticker }) {
  const key = cropPreviewRequest(sticker)?.key ?? null;
  const kept = useEditor((s) => (key ? s.cropPreviews[key] !== undefined : false));
  const failure = useEditor((s) => (key ? s.cropFailures[key] : undefined));
  const drawn = useEditor(
    (s) => key !== null && wantedCaptures(s.design).some((r) => r.key === key),
  );
  if (key === null)
    return (
      <p className="small muted countdown-panel__note">
        Give the screenshot a fallback page to see the element on the canvas.
      </p>
    );
  if (failure !== undefined && !kept)
    return (
      <p role="alert" className="small countdown-panel__note web-crop-panel__error">
        {failure} The canvas shows the placeholder.
      </p>
    );
  return (
    <p role="status" className="small muted countdown-panel__note">
      {kept
        ? 'The canvas shows the element as captured from the fallback page.'
        : drawn
          ? 'Capturing the element from the fallback page…'
          : `The canvas shows the first ${MAX_CROP_PREVIEWS} live crops of a design: this one shows the placeholder.`}
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
