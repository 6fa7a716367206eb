import { useId } from 'react';
import { WEATHER_SKIES, type RuleCondition, type WeatherSky } from '#shared/scene/rules.ts';
import { Choices } from './Choices.tsx';
import { DraftField } from './DraftField.tsx';

/** What each kind of sky is called in the panel (docs/weather.md "Conditions"). */
export const SKY_LABELS: Record<WeatherSky, string> = {
  clear: 'Clear',
  cloudy: 'Cloudy',
  fog: 'Fog',
  drizzle: 'Drizzle',
  rain: 'Rain',
  snow: 'Snow',
  storm: 'Thunderstorm',
};

/** A temperature field's text: the bound, or '' for none. */
const boundText = (value: number | null): string => (value === null ? '' : String(value));

/**
 * A weather condition's fields (docs/weather.md "Conditions"): whose place (the reader's, as the
 * CDN locates them, or a parameter holding a city, a postcode or `lat,lon`), the kinds of sky,
 * and the lowest and highest temperature in °C (empty: no bound). `set` applies a changed copy
 * and returns the schema's problem, shown under the field.
 */
export function WeatherCondition({
  condition,
  params,
  set,
}: {
  condition: Extract<RuleCondition, { kind: 'weather' }>;
  params: string[];
  set: (next: RuleCondition) => string | null;
}) {
  const id = useId();
  const names =
    condition.param_name === '' || params.includes(condition.param_name)
      ? params
      : [condition.param_name, ...params];
  const bound = (field: 'min_temp_c' | 'max_temp_c') => (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return set({ ...condition, [field]: null });
    const n = Number(trimmed);
    return Number.isFinite(n) ? set({ ...condition, [field]: n }) : 'Enter a number of degrees.';
  };
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-place`} className="field__label">
          Place
        </label>
        <p id={`${id}-hint`} className="field__hint">
          A parameter holding a city, a postcode or latitude,longitude; or where the reader opens
          the e-mail, as the CDN locates them (about a city).
        </p>
        <select
          id={`${id}-place`}
          className="input"
          aria-describedby={`${id}-hint`}
          value={condition.param_name}
          onChange={(e) => set({ ...condition, param_name: e.target.value })}
        >
          <option value="">The reader’s place (from the CDN)</option>
          {names.map((name) => (
            <option key={name} value={name}>
              {`{{${name}}}`}
            </option>
          ))}
        </select>
      </div>
      <Choices
        legend="Weather now (none chosen: any)"
        options={WEATHER_SKIES}
        labels={(sky) => SKY_LABELS[sky]}
        chosen={condition.skies}
        onChange={(skies) => set({ ...condition, skies })}
      />
      <DraftField
        label="Lowest temperature (°C)"
        type="number"
        hint="Empty: no lowest."
        value={boundText(condition.min_temp_c)}
        onCommit={bound('min_temp_c')}
      />
      <DraftField
        label="Highest temperature (°C)"
        type="number"
        hint="Empty: no highest."
        value={boundText(condition.max_temp_c)}
        onCommit={bound('max_temp_c')}
      />
    </>
  );
}
