/**
 * The image toolbar (docs/editor.md "Architecture": "Image toolbar: Filter, Enhance, Crop, Rotate,
 * undo, redo; image Width and Height counters with a link (lock aspect) toggle and a unit select
 * (px, in, mm, cm); canvas and image size display"; "Crop mode shows Done and Cancel"). Every
 * control runs a named command (commands/image.ts); the document saves through the server sync.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ENHANCE_RANGES, FILTER_NAMES, type EnhanceName } from '#shared/effects.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { isApiError } from '../../../api/client.ts';
import { croppedPng } from '../canvas/crop.ts';
import { runCommand } from '../commands.ts';
import {
  baseImageUrlOf,
  CROP_START,
  CROP_TOO_SMALL_MESSAGE,
  cropTooSmall,
  maxCanvasSize,
  MIN_SIZE_PX,
} from '../document/image.ts';
import {
  isSizeUnit,
  pxToUnit,
  SIZE_UNITS,
  stepPx,
  unitToPx,
  type SizeUnit,
} from '../document/units.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { saveCroppedImage } from '../imagesApi.ts';
import '../image.css';

/**
 * The sliders of Enhance and their steps (docs/adr/0014-the-design-document-versions-and-restore.md
 * "The design document: versions and restore": "about 0.0039", here 2/512 so that 0 is a step of
 * the -1..1 range; Hue 0.002; Blur 0.01; Pixelate whole px, 0..100, where 1 or below draws nothing:
 * docs/editor.md "Editing rules", docs/editor.md "Filters and enhancements").
 */
const SLIDERS: { name: EnhanceName; step: number }[] = [
  { name: 'Brightness', step: 2 / 512 },
  { name: 'Contrast', step: 2 / 512 },
  { name: 'Saturation', step: 2 / 512 },
  { name: 'Hue', step: 0.002 },
  { name: 'Blur', step: 0.01 },
  { name: 'Pixelate', step: 1 },
];
/** The on/off enhancements (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": "Sharpen, Emboss (on/off)"). */
const SWITCHES: EnhanceName[] = ['Sharpen', 'Emboss'];

/** A toolbar button opening a small panel under it; Escape or a click outside closes it. */
function Disclosure({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('pointerdown', outside);
    return () => window.removeEventListener('pointerdown', outside);
  }, [open]);
  return (
    // role="presentation": the handler only catches Escape bubbling up from the button and the
    // panel's controls; the wrapper itself is not interactive.
    <div
      className="image-tools__menu"
      ref={root}
      role="presentation"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="button button--small button--secondary"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <div
        id={id}
        className="image-tools__popover card"
        role="group"
        aria-label={label}
        hidden={!open}
      >
        {open && children}
      </div>
    </div>
  );
}

/** The filters of docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", each switched on or off. */
function FilterMenu() {
  const { store } = useEditorContext();
  const filters = useEditor((s) => s.design?.filters ?? {});
  return (
    <Disclosure label="Filter">
      <ul className="image-tools__list">
        {FILTER_NAMES.map((name) => (
          <li key={name}>
            <label>
              <input
                type="checkbox"
                checked={filters[name] === true}
                onChange={() => runCommand(store, 'toggleFilter', { name })}
              />{' '}
              {name}
            </label>
          </li>
        ))}
      </ul>
    </Disclosure>
  );
}

/** Keys a focused slider moves with: kept from the editor's shortcuts (arrows nudge there). */
const SLIDER_KEYS = new Set([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);
const keepSliderKeys = (e: KeyboardEvent) => {
  if (SLIDER_KEYS.has(e.key)) e.stopPropagation();
};

/** The enhancements of docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" with their ranges; values shown to two decimals. */
function EnhanceMenu() {
  const { store } = useEditorContext();
  const enhance = useEditor((s) => s.design?.enhance ?? {});
  const id = useId();
  return (
    <Disclosure label="Enhance">
      <div className="image-tools__sliders">
        {SLIDERS.map(({ name, step }) => {
          const [min, max] = ENHANCE_RANGES[name];
          const value = enhance[name] ?? 0;
          return (
            <div key={name} className="image-tools__slider">
              <label htmlFor={`${id}-${name}`}>{name}</label>
              <input
                id={`${id}-${name}`}
                type="range"
                min={min}
                max={max}
                step={step}
                value={value}
                onChange={(e) =>
                  runCommand(store, 'setEnhance', { name, value: e.target.valueAsNumber })
                }
                onKeyDown={keepSliderKeys}
              />
              <output htmlFor={`${id}-${name}`} className="small">
                {name === 'Pixelate' ? `${value} px` : value.toFixed(2)}
              </output>
            </div>
          );
        })}
        {SWITCHES.map((name) => (
          <label key={name} className="image-tools__switch">
            <input
              type="checkbox"
              checked={(enhance[name] ?? 0) > 0}
              onChange={(e) =>
                runCommand(store, 'setEnhance', { name, value: e.target.checked ? 1 : 0 })
              }
            />{' '}
            {name}
          </label>
        ))}
      </div>
    </Disclosure>
  );
}

/**
 * A size counter (docs/editor.md "Editing rules": "Counter inputs clamp to min and max";
 * docs/editor.md "Constants" steps): shows px in the chosen unit; typing is applied on Enter or
 * when the field is left, the arrow keys and the −/+ buttons step by the unit's step.
 */
function SizeCounter({
  label,
  px,
  maxPx,
  unit,
  onPx,
}: {
  label: string;
  px: number;
  maxPx: number;
  unit: SizeUnit;
  onPx: (px: number) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const value = Number(draft.replace(',', '.'));
    setDraft(null);
    if (draft.trim() !== '' && Number.isFinite(value)) onPx(unitToPx(value, unit));
  };
  const step = (direction: 1 | -1) => {
    setDraft(null);
    onPx(stepPx(px, unit, direction));
  };
  return (
    <div className="image-tools__counter">
      <label htmlFor={id} className="small">
        {label}
      </label>
      <button
        type="button"
        className="button button--small button--secondary"
        aria-label={`Decrease ${label.toLowerCase()}`}
        disabled={px <= MIN_SIZE_PX}
        onClick={() => step(-1)}
      >
        −
      </button>
      <input
        id={id}
        className="input image-tools__number"
        inputMode="decimal"
        value={draft ?? String(pxToUnit(px, unit))}
        aria-describedby={`${id}-unit`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            step(e.key === 'ArrowUp' ? 1 : -1);
          }
        }}
      />
      <button
        type="button"
        className="button button--small button--secondary"
        aria-label={`Increase ${label.toLowerCase()}`}
        disabled={px >= maxPx}
        onClick={() => step(1)}
      >
        +
      </button>
      <span id={`${id}-unit`} className="muted small">
        {unit}
      </span>
    </div>
  );
}

/** A chain link, whole when the aspect is locked, broken when free (Tabler Icons, MIT). */
function LinkIcon({ locked }: { locked: boolean }) {
  return (
    <svg
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {locked ? (
        <path d="M9 15l6 -6M11 6l.463 -.536a5 5 0 0 1 7.071 7.072l-.534 .464M13 18l-.397 .534a5.068 5.068 0 0 1 -7.127 0a4.972 4.972 0 0 1 0 -7.071l.524 -.463" />
      ) : (
        <path d="M9 15l3 -3m2 -2l1 -1M11 6l.463 -.536a5 5 0 0 1 7.071 7.072l-.534 .464M3 3l18 18M13 18l-.397 .534a5.068 5.068 0 0 1 -7.127 0a4.972 4.972 0 0 1 0 -7.071l.524 -.463" />
      )}
    </svg>
  );
}

/** Width and height with the aspect lock and the unit select (docs/editor.md "Architecture", docs/editor.md "Editing rules", docs/editor.md "Constants"). */
function SizeTools() {
  const { store } = useEditorContext();
  const design = useEditor((s) => s.design);
  const [locked, setLocked] = useState(true);
  const unitId = useId();
  if (!design) return null;
  const unit = design.size_option;
  const max = maxCanvasSize(design);
  const resize = (changed: 'width' | 'height') => (value: number) =>
    runCommand(store, 'resizeCanvas', { changed, value, locked });
  return (
    <div className="image-tools__size" role="group" aria-label="Image size">
      <SizeCounter
        label="Width"
        px={design.canvas_width}
        maxPx={max.width}
        unit={unit}
        onPx={resize('width')}
      />
      <button
        type="button"
        className="button button--small button--secondary image-tools__lock"
        aria-pressed={locked}
        title={locked ? 'Aspect ratio locked' : 'Aspect ratio free'}
        onClick={() => setLocked(!locked)}
      >
        <LinkIcon locked={locked} />
        <span className="visually-hidden">Lock aspect ratio</span>
      </button>
      <SizeCounter
        label="Height"
        px={design.canvas_height}
        maxPx={max.height}
        unit={unit}
        onPx={resize('height')}
      />
      <label htmlFor={unitId} className="visually-hidden">
        Unit
      </label>
      <select
        id={unitId}
        className="input image-tools__unit"
        value={unit}
        onChange={(e) => {
          if (isSizeUnit(e.target.value))
            runCommand(store, 'setSizeOption', { unit: e.target.value });
        }}
      >
        {SIZE_UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Crop mode's Done and Cancel (docs/editor.md "Architecture", docs/editor.md "Commands") with the too-small warning (docs/editor.md "Messages"). */
function CropTools() {
  const { store } = useEditorContext();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const crop = async () => {
    setAsking(false);
    const { design, meta, crop: rect } = store.getState();
    if (!design || !meta || !rect) return;
    const src = baseImageUrlOf(design.base_image_key) ?? meta.baseImageUrl;
    if (!src) return setError('This design has no photo to crop.');
    setBusy(true);
    setError(null);
    try {
      const png = await croppedPng(design, src, rect);
      const image = await saveCroppedImage(png, meta.id);
      runCommand(store, 'cropImage', { rect, image });
      store.getState().setCrop(null);
    } catch (e) {
      console.error(e);
      setError(isApiError(e) ? e.message : 'The photo could not be cropped. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const done = () => {
    const { design, crop: rect } = store.getState();
    if (!design || !rect) return;
    if (cropTooSmall(design, rect)) setAsking(true);
    else void crop();
  };

  return (
    <>
      <span className="small image-tools__hint">
        Drag the rectangle or its corner to choose the part to keep.
      </span>
      <button type="button" className="button button--small" disabled={busy} onClick={done}>
        {busy ? 'Cropping…' : 'Done'}
      </button>
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={busy}
        onClick={() => store.getState().setCrop(null)}
      >
        Cancel
      </button>
      {error && (
        <span className="field__error small" role="alert">
          {error}
        </span>
      )}
      <ConfirmDialog
        open={asking}
        title="Crop the image?"
        confirmLabel="Crop"
        onCancel={() => setAsking(false)}
        onConfirm={() => void crop()}
      >
        <p>{CROP_TOO_SMALL_MESSAGE}</p>
      </ConfirmDialog>
    </>
  );
}

/** The photo's own size (docs/editor.md "Architecture": "canvas and image size display"). */
function ImageSize() {
  const width = useEditor((s) => s.design?.image_width ?? null);
  const height = useEditor((s) => s.design?.image_height ?? null);
  if (!width || !height) return null;
  return (
    <span className="muted small" data-testid="image-size">
      Photo {width} × {height} px
    </span>
  );
}

/** The image tools, or crop mode's Done and Cancel while cropping. */
export function ImageToolbar() {
  const { store } = useEditorContext();
  const cropping = useEditor((s) => s.crop !== null);
  if (cropping) return <CropTools />;
  return (
    <>
      <FilterMenu />
      <EnhanceMenu />
      <button
        type="button"
        className="button button--small button--secondary"
        onClick={() => {
          store.getState().deselect();
          store.getState().setCrop({ ...CROP_START });
        }}
      >
        Crop
      </button>
      {(
        [
          ['Rotate', '⟳ ', () => runCommand(store, 'rotateImage')],
          ['Flip X', '', () => runCommand(store, 'flipImage', { axis: 'x' })],
          ['Flip Y', '', () => runCommand(store, 'flipImage', { axis: 'y' })],
        ] as const
      ).map(([label, icon, run]) => (
        <button
          key={label}
          type="button"
          className="button button--small button--secondary"
          onClick={run}
        >
          {icon && <span aria-hidden="true">{icon}</span>}
          {label}
        </button>
      ))}
      <SizeTools />
      <ImageSize />
    </>
  );
}
