import { useId } from 'react';
import { DESIGN_SORTS, type DesignSort } from '../../api/designs.ts';
import { parseSort } from './query.ts';

/** The options of the Sort by dropdown (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "empty = last updated, created, name, views"). */
export const SORT_LABELS: Record<DesignSort, string> = {
  '': 'Last updated',
  created: 'Created',
  name: 'Name',
  views: 'Opens',
};

/** The dashboard header's "Sort by" dropdown (docs/adr/0020-dashboard-spa.md "Dashboard SPA"), a native labelled select. */
export function SortSelect({
  value,
  onChange,
}: {
  value: DesignSort;
  onChange: (sort: DesignSort) => void;
}) {
  const id = useId();
  return (
    <div className="sort-select">
      <label htmlFor={id} className="field__label">
        Sort by
      </label>
      <select
        id={id}
        name="sortby"
        className="input input--select"
        value={value}
        onChange={(event) => onChange(parseSort(event.target.value))}
      >
        {DESIGN_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}
