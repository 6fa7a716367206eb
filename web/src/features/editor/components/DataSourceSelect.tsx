/**
 * The select that opens each of the data panel's add forms (docs/editor.md "Data sources"): a
 * labelled choice of one of the team's data stores or web APIs, by id.
 */
import type { ReactNode } from 'react';

/**
 * @param id the select's element id (its label points at it).
 * @param sources the choices, `{ id, label }` each, in the order shown.
 * @param children shown under the select inside the same field (a hint).
 */
export function DataSourceSelect({
  id,
  label,
  value,
  sources,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  sources: { id: string; label: string }[];
  onChange: (id: string) => void;
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}
