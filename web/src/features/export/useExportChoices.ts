import { useEffect, useRef, useState } from 'react';
import { EXPORT_MESSAGES } from '#shared/export-url.ts';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { saveChoices, saveProvider } from './api.ts';
import {
  exportRows,
  matchRowsByName,
  rowProblem,
  type ExportDesign,
  type ExportRow,
} from './model.ts';
import type { MergeTagOption } from './ValueEditor.tsx';
import { useMissingImages } from './useMissingImages.ts';
import { useSave, type SaveState } from './useSave.ts';

/** Wait after the last keystroke before the preview re-renders, ms. */
export const PREVIEW_DEBOUNCE_MS = 500;
/** Wait after the last keystroke before the values are saved, ms. */
const SAVE_DEBOUNCE_MS = 800;

/** The export screen's saved choices, from {@link useExportChoices}. */
export interface ExportChoices {
  provider: string;
  storefront: string;
  rows: ExportRow[];
  /** A row's problem: its value's rule (shared/export-url.ts), or its image not loading. */
  problemOf: (row: ExportRow) => string | null;
  /** Some row has a problem. */
  problems: boolean;
  providerSave: SaveState;
  choicesSave: SaveState;
  /** Values are not saved yet: in the debounce, held back by a problem, or their save failed. */
  unsaved: boolean;
  /**
   * docs/export.md "The screen": choosing a platform clears every value, then saves the platform
   * (with the store front for Klaviyo).
   */
  chooseProvider: (value: string) => void;
  chooseStorefront: (value: string) => void;
  changeRow: (key: string, value: string, name: string) => void;
  /** Saves the platform shown (the team's, for a design never exported) as the design's. */
  keepProvider: () => void;
  /**
   * Fills each empty value with the merge field matching its parameter's name (model.ts
   * `matchRowsByName`); `stickers` false leaves dynamic stickers' values as they are (empty
   * there means the editor's value).
   */
  matchByName: (tags: readonly MergeTagOption[], stickers: boolean) => void;
  /** The rows whose value was filled by name and not changed since. */
  matched: ReadonlySet<string>;
}

/**
 * The choices the export screen saves as they change (docs/export.md "The screen", docs/export.md
 * "What Generate writes"): the platform and store front (`PUT …/provider` at once) and each
 * parameter's value (`PUT …/choices` once typing has paused and every value passes its rules).
 */
export function useExportChoices(design: ExportDesign): ExportChoices {
  const [provider, setProvider] = useState<string>(design.merge_tag_provider ?? '');
  const [storefront, setStorefront] = useState<string>(design.merge_tag_storefront ?? '');
  const [rows, setRows] = useState<ExportRow[]>(() => exportRows(design));
  const [providerSave, runProviderSave] = useSave();
  const [choicesSave, runChoicesSave] = useSave();
  const touched = useRef(false);
  /** Values typed or chosen since the screen opened or the platform changed. */
  const [edited, setEdited] = useState(false);
  const [matched, setMatched] = useState<ReadonlySet<string>>(new Set());
  const missing = useMissingImages(rows, provider, PREVIEW_DEBOUNCE_MS);
  const problemOf = (row: ExportRow) =>
    rowProblem(provider, row) ??
    (missing.has(row.merge_tag_value.trim()) ? EXPORT_MESSAGES.imageMissing : null);

  // Values are saved once typing pauses and every value passes its rules.
  const rowsToSave = useDebouncedValue(rows, SAVE_DEBOUNCE_MS);
  useEffect(() => {
    if (!touched.current) return;
    if (rowsToSave.some((r) => rowProblem(provider, r) !== null)) return;
    void runChoicesSave(() => saveChoices(design.id, rowsToSave));
  }, [rowsToSave, provider, design.id, runChoicesSave]);

  return {
    provider,
    storefront,
    rows,
    problemOf,
    problems: rows.some((r) => problemOf(r) !== null),
    providerSave,
    choicesSave,
    unsaved:
      edited &&
      (rows !== rowsToSave ||
        rowsToSave.some((r) => rowProblem(provider, r) !== null) ||
        choicesSave.state === 'failed'),
    chooseProvider: (value) => {
      setProvider(value);
      touched.current = false;
      setEdited(false);
      setMatched(new Set());
      setRows((current) => current.map((r) => ({ ...r, merge_tag_value: '', merge_tag_name: '' })));
      const store = value === 'klaviyo' ? storefront : '';
      void runProviderSave(() => saveProvider(design.id, value, store || null));
    },
    chooseStorefront: (value) => {
      setStorefront(value);
      void runProviderSave(() => saveProvider(design.id, provider, value || null));
    },
    changeRow: (key, value, name) => {
      touched.current = true;
      setEdited(true);
      setMatched((keys) => (keys.has(key) ? new Set([...keys].filter((k) => k !== key)) : keys));
      setRows((current) =>
        current.map((r) =>
          r.key === key ? { ...r, merge_tag_value: value, merge_tag_name: name } : r,
        ),
      );
    },
    keepProvider: () => {
      void runProviderSave(() => saveProvider(design.id, provider, storefront || null));
    },
    matchByName: (tags, stickers) => {
      const filled = matchRowsByName(
        provider,
        stickers ? rows : rows.filter((r) => r.parameterId !== null),
        tags,
      ).filter((r) => r.merge_tag_value !== '' && !rows.includes(r));
      if (filled.length === 0) return;
      const byKey = new Map(filled.map((r) => [r.key, r]));
      touched.current = true;
      setEdited(true);
      setRows((current) => current.map((r) => (r.merge_tag_value === '' && byKey.get(r.key)) || r));
      setMatched((keys) => new Set([...keys, ...byKey.keys()]));
    },
    matched,
  };
}
