/**
 * The frame of the data panel's "add a binding" forms (docs/editor.md "Data sources";
 * docs/data-sources.md "Binding a design"), shared by the data-store form (DataPanel.tsx) and the
 * web-API form (DataApiBinding.tsx): the titled section, the source select, the map of fields to
 * the design's parameters, the line that says why a binding was refused, and the "Add binding"
 * button. What lies between the select and the problem line differs per source and is the
 * caller's (the map is placed there, with `ParamMap` and `ParamField`).
 */
import type { ComponentProps, ReactNode } from 'react';
import type { DataBinding } from '#shared/data-bindings.ts';
import { DataSourceSelect } from './DataSourceSelect.tsx';

/** Each kind of source's form: its title and its select's label. */
const KINDS: Record<DataBinding['source'], { title: string; label: string }> = {
  store: { title: 'Add a data store', label: 'Data store' },
  api: { title: 'Add a web API', label: 'Web API' },
};

/**
 * One add form: a section titled after `source` (its heading names the section), the select of
 * that kind of source with `hint` under it, then `children`, then the refusal `problem` (an
 * alert) and the button.
 *
 * @param id the form's id base: the heading is `${id}-title`, the select `${id}-${source}`.
 * @param source which kind of source the form binds: 'store' (a data store) or 'api' (a web API).
 * @param value the chosen source's id; `sources` are `{ id, label }` each, in the order shown.
 * @param problem why the last "Add binding" was refused, or null (no line shown).
 * @param canAdd false disables the button (no source is chosen).
 * @param onAdd called on the button's click; the caller checks the draft and sets `problem`.
 */
export function AddBindingForm({
  id,
  source,
  value,
  sources,
  onSourceChange,
  hint,
  problem,
  canAdd,
  onAdd,
  children,
}: {
  id: string;
  source: DataBinding['source'];
  value: string;
  sources: ComponentProps<typeof DataSourceSelect>['sources'];
  onSourceChange: (sourceId: string) => void;
  hint?: ReactNode;
  problem: string | null;
  canAdd: boolean;
  onAdd: () => void;
  children: ReactNode;
}) {
  const kind = KINDS[source];
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="card__title">
        {kind.title}
      </h3>
      <DataSourceSelect
        id={`${id}-${source}`}
        label={kind.label}
        value={value}
        sources={sources}
        onChange={onSourceChange}
      >
        {hint}
      </DataSourceSelect>
      {children}
      {problem && (
        <p className="field__error" role="alert">
          ! {problem}
        </p>
      )}
      <button type="button" className="button" onClick={onAdd} disabled={!canAdd}>
        Add binding
      </button>
    </section>
  );
}

/**
 * The fieldset that maps a source's fields to the design's parameters: its `legend`, then `intro`
 * (a hint), then a hint when the design has no parameters yet, then the rows (`children`).
 *
 * @param params the design's parameter names (only their count matters here).
 */
export function ParamMap({
  legend,
  params,
  intro,
  children,
}: {
  legend: string;
  params: string[];
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset className="stack data-panel__map">
      <legend className="field__label">{legend}</legend>
      {intro}
      {params.length === 0 && (
        <p className="field__hint">The design has no parameters yet: add one to a text.</p>
      )}
      {children}
    </fieldset>
  );
}

/**
 * A labelled select of the design parameter one field fills: "Not used" (value '') or one of
 * `params`, by name (the same labelled select as the source's).
 *
 * @param id the select's element id (its label points at it).
 * @param value the chosen parameter name, '' for "Not used".
 */
export function ParamField({
  id,
  label,
  value,
  params,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  params: string[];
  onChange: (param: string) => void;
}) {
  return (
    <DataSourceSelect
      id={id}
      label={label}
      value={value}
      sources={[{ id: '', label: 'Not used' }, ...params.map((p) => ({ id: p, label: p }))]}
      onChange={onChange}
    />
  );
}
