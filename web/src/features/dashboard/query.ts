/**
 * The dashboard's query parameters (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Sort is kept
 * in query parameter sortby"; the view switches): read leniently, so an old or mistyped link still
 * opens a list.
 */
import {
  DASHBOARD_VIEWS,
  DESIGN_SORTS,
  type DashboardView,
  type DesignSort,
} from '../../api/designs.ts';

/** Reads `sortby`; anything unknown is the default, last updated (''). */
export function parseSort(value: string | null): DesignSort {
  const sort = value ?? '';
  return (DESIGN_SORTS as readonly string[]).includes(sort) ? (sort as DesignSort) : '';
}

/** Reads `view`; anything unknown is the active list. */
export function parseView(value: string | null): DashboardView {
  return (DASHBOARD_VIEWS as readonly string[]).includes(value ?? '')
    ? (value as DashboardView)
    : 'active';
}
