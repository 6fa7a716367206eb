/**
 * The properties of a selected weather sticker (docs/editor.md "Weather"; docs/weather.md "The
 * weather sticker"): the place (its read-only parameter, the fallback place, and the reader's
 * place when no place is given), the units, what shows (the place's name; the text when no
 * weather is known), and its style (collapsed). Every change is the `setWeather` command (one
 * undo step per field; typing merges), checked by the shared schema the API checks with: a
 * refused value stays in its field with the schema's message and is not saved. The canvas
 * draws the sticker with sample weather (document/weather.ts), or, chosen here, with none.
 */
import { useEffect, useId } from 'react';
import type { Sticker } from '#shared/design.ts';
import { WeatherStickerSchema, type WeatherSticker } from '#shared/scene/weather-sticker.ts';
import { SAMPLE_WEATHER } from '../document/weather.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import '../countdown.css';
import { ColorField } from './ColorField.tsx';
import { Group, SettingInput } from './CountdownPanel.tsx';
import { FontFamilyField, useFontState } from './FontFamilyField.tsx';
import { NumberField } from './NumberField.tsx';
import { PanelColourField } from './PanelColourField.tsx';
import { QrToolbar } from './QrToolbar.tsx';
import { useSettingsChange } from './useSettingsChange.ts';

/** A new weather sticker's panel colour (the schema's default), set again when switched on. */
const DEFAULT_PANEL = WeatherStickerSchema.shape.panel_fill.parse(undefined);
/** The temperature's text size, px at the 400x200 size (the schema's bounds). */
const FONT_SIZE = { min: 8, max: 200 } as const;

/**
 * The units, °C, °F or by the reader's country (docs/weather.md "The weather sticker"), as radio
 * buttons.
 */
function UnitChoice({
  sticker,
  weather,
  onValue,
}: {
  sticker: Sticker;
  weather: WeatherSticker;
  onValue: (unit: WeatherSticker['unit']) => void;
}) {
  const units = [
    ['c', '°C'],
    ['f', '°F'],
    ['auto', "By the reader's country"],
  ] as const;
  return (
    <fieldset className="countdown-panel__choice">
      <legend className="small">Units</legend>
      {units.map(([unit, label]) => (
        <label key={unit} className="small">
          <input
            type="radio"
            name={`weather-unit-${sticker.uuid}`}
            checked={weather.unit === unit}
            onChange={() => onValue(unit)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * What the canvas shows the weather stickers with while the panel is open: the sample weather,
 * or no weather known (the text above). Back to the sample when the panel closes.
 */
function CanvasPreviewChoice({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  const preview = useEditor((s) => s.weatherPreview);
  useEffect(() => () => store.getState().setWeatherPreview('sample'), [store]);
  const choices = [
    ['sample', `Sample weather (clear, ${SAMPLE_WEATHER.temperatureC} °C)`],
    ['unknown', 'No weather known'],
  ] as const;
  return (
    <fieldset className="countdown-panel__choice">
      <legend className="small">The canvas shows</legend>
      {choices.map(([value, label]) => (
        <label key={value} className="small">
          <input
            type="radio"
            name={`weather-preview-${sticker.uuid}`}
            checked={preview === value}
            onChange={() => store.getState().setWeatherPreview(value)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The selected weather sticker's settings, in groups; the style collapsed. */
export function WeatherPanel({ sticker }: { sticker: Sticker }) {
  const weather = sticker.weather;
  const change = useSettingsChange('setWeather', sticker.uuid);
  const font = useFontState(weather?.font_family ?? '');
  const viewerHintId = useId();
  if (!weather) return null;
  return (
    <div className="countdown-panel weather-panel" data-testid="weather-panel">
      <Group title="Place">
        <p className="small muted countdown-panel__note">
          Each recipient&apos;s place (a city, a postcode or lat,lon) comes in the parameter; the
          fallback place is everyone else&apos;s.
        </p>
        <QrToolbar sticker={sticker} />
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={weather.use_viewer_place}
            aria-describedby={viewerHintId}
            onChange={(e) => change({ use_viewer_place: e.target.checked })}
          />{' '}
          Use the reader&apos;s place
        </label>
        <p id={viewerHintId} className="small muted countdown-panel__note">
          When no place is given: where the e-mail is opened (about the city), so each reader gets
          an image of their own. Behind a mail proxy, the proxy&apos;s place.
        </p>
      </Group>
      <Group title="Shown">
        <UnitChoice sticker={sticker} weather={weather} onValue={(unit) => change({ unit })} />
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={weather.show_place}
            onChange={(e) => change({ show_place: e.target.checked })}
          />{' '}
          Show the place&apos;s name
        </label>
        <SettingInput
          label="Text when no weather is known"
          field="fallback_text"
          width="wide"
          value={weather.fallback_text}
          onValue={(fallback_text) => change({ fallback_text })}
        />
        <p className="small muted countdown-panel__note">Empty: nothing is drawn then.</p>
        <CanvasPreviewChoice sticker={sticker} />
      </Group>
      <details className="countdown-panel__group weather-panel__style">
        <summary className="countdown-panel__heading small">Style</summary>
        <div className="countdown-panel__fields">
          <FontFamilyField
            value={weather.font_family}
            failed={font.failed}
            onChange={(font_family) => change({ font_family })}
          />
          <NumberField
            label="Text size"
            unit="px"
            value={weather.font_size}
            min={FONT_SIZE.min}
            max={FONT_SIZE.max}
            onValue={(font_size) =>
              change({ font_size: Math.min(FONT_SIZE.max, Math.max(FONT_SIZE.min, font_size)) })
            }
          />
          <ColorField
            label="Text colour"
            kind="color"
            value={weather.fill}
            onValue={(fill) => change({ fill })}
          />
          <ColorField
            label="Icon colour"
            kind="color"
            value={weather.icon_fill}
            onValue={(icon_fill) => change({ icon_fill })}
          />
          <PanelColourField
            value={weather.panel_fill}
            defaultValue={DEFAULT_PANEL}
            onValue={(panel_fill) => change({ panel_fill })}
          />
        </div>
      </details>
    </div>
  );
}
