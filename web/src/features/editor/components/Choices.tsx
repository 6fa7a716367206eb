import type { ReactNode } from 'react';

/** A group of checkboxes for a list condition (devices, days…). */
export function Choices<T extends string | number>({
  legend,
  options,
  labels,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  labels?: (option: T) => ReactNode;
  chosen: readonly T[];
  onChange: (next: T[]) => void;
}) {
  return (
    <fieldset className="rules-panel__choices">
      <legend className="field__label">{legend}</legend>
      {options.map((option) => (
        <label key={option} className="rules-panel__choice">
          <input
            type="checkbox"
            checked={chosen.includes(option)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, option] : chosen.filter((c) => c !== option))
            }
          />{' '}
          {labels ? labels(option) : String(option)}
        </label>
      ))}
    </fieldset>
  );
}
