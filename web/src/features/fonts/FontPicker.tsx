import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { fontFamilyList } from '#shared/scene/fonts.ts';
import type { CustomFont, FontGroup } from '#shared/fonts/types.ts';
import { isApiError } from '../../api/client.ts';
import { STALE_TIME } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { subscriptionPath } from '../../hooks/useCurrentTeam.ts';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { fetchCustomFonts, fetchFontList, storeFont } from './api.ts';
import { loadFont, setFontSources } from './loadFont.ts';
import {
  ALL_FONTS,
  FONT_ERROR_MS,
  FONT_EXTENSION_MESSAGE,
  FONT_EXTENSIONS,
  FONT_LIST_HEIGHT,
  FONT_PAGE_SIZE,
  FONT_ROW_HEIGHT,
  FONT_SEARCH_DEBOUNCE_MS,
  UPLOADED,
  filterFonts,
  fontCategories,
  moveActive,
  type FontRowOption,
} from './pickerLogic.ts';
import './FontPicker.css';

/** No uploaded fonts (one array, so what is filtered from it is not filtered again). */
const NO_FONTS: readonly CustomFont[] = [];

/** The picker's lists: the server's font groups and the team's uploaded fonts. */
interface FontLists {
  groups: FontGroup[];
  custom: CustomFont[];
}

/**
 * Reads the font groups and the team's uploads (none when they cannot be read) and hands both
 * to the font loader, which draws each row in its family.
 */
async function loadFontLists(signal: AbortSignal): Promise<FontLists> {
  const [list, custom] = await Promise.all([
    fetchFontList(signal),
    fetchCustomFonts(signal).catch((): CustomFont[] => []),
  ]);
  setFontSources({ custom, cdnUrl: list.cdnUrl });
  return { groups: list.groups, custom };
}

/** docs/adr/0023-team-roles.md "Team roles" / docs/accounts.md "Validation rules": shown with the Upgrade link to teams without font upload. */
export const PRO_ONLY_MESSAGE = 'This feature is available only for Pro plans.';

/**
 * Props of {@link FontPicker} (the contract with the text toolbar).
 * - `value`: the text snippet's `fontFamily` (docs/fonts.md "The catalogue"), shown on the button
 *   in its font;
 * - `onChange(family)`: called with the chosen family, after its faces loaded (so fabric
 *   measures with them); never called for a disabled font;
 * - `teamCanUpload`: the team's `can_upload_custom_fonts` (docs/adr/0023-team-roles.md "Team
 *   roles"). Without it the Uploaded category is disabled and the upload button gives way to the
 *   Upgrade link.
 */
export interface FontPickerProps {
  value: string;
  onChange(family: string): void;
  teamCanUpload: boolean;
}

/** Families whose faces have loaded in this document, so rows draw in their own font. */
const loadedFamilies = new Set<string>();

/** One row: drawn in its own family once its faces load (lazily: only rows on screen). */
function FontRow({
  option,
  id,
  selected,
  active,
  top,
  onPick,
}: {
  option: FontRowOption;
  id: string;
  selected: boolean;
  active: boolean;
  top: number;
  onPick: () => void;
}) {
  const [loaded, setLoaded] = useState(() => loadedFamilies.has(option.family));
  useEffect(() => {
    if (loaded || option.disabled) return;
    let live = true;
    loadFont(option.family).then(
      (r) => {
        if (r.source === 'fallback') return;
        loadedFamilies.add(option.family);
        if (live) setLoaded(true);
      },
      () => undefined, // the row stays in the interface font; picking it says why
    );
    return () => {
      live = false;
    };
  }, [loaded, option.family, option.disabled]);
  return (
    // An aria-activedescendant listbox: the focus stays in the search box, whose keys move and
    // pick (onListKeyDown), so an option takes no focus and no key of its own.
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/interactive-supports-focus
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-disabled={option.disabled || undefined}
      className={`font-picker__option${active ? ' font-picker__option--active' : ''}`}
      // A name too wide for the row in its own face ends in "…": the pointer shows it whole.
      title={option.family}
      style={{
        top,
        height: FONT_ROW_HEIGHT,
        fontFamily: loaded ? fontFamilyList(option.family) : undefined,
      }}
      onMouseDown={(e) => e.preventDefault() /* keep focus in the search box */}
      onClick={() => !option.disabled && onPick()}
    >
      <span className="font-picker__name">{option.family}</span>
      {/* The name alone names the option; aria-disabled says the rest. */}
      {option.disabled && (
        <span className="font-picker__tag" aria-hidden="true">
          drawn as Journal
        </span>
      )}
      {option.uploaded && (
        <span className="font-picker__tag" aria-hidden="true">
          uploaded
        </span>
      )}
    </div>
  );
}

/**
 * The font picker of the text toolbar (docs/fonts.md "The editor": "font family", docs/fonts.md
 * "The catalogue" Fonts, docs/editor.md "Commands" font upload, docs/fonts.md "Limits and known
 * gaps" list constants): a button showing the current family in its own font, opening a panel with
 * the category select (All Fonts, Uploaded, the server groups), a search box (400 ms), and a
 * virtualised listbox (rows of 28 px in a 350 px list, 50 more per page as it scrolls), each row
 * drawn in its family once loaded. Keyboard: arrows, Page Up/Down, Home/End move
 * (`aria-activedescendant`), Enter picks, Esc closes and returns focus to the button. An empty list
 * says "No Font". "Upload font" takes a .ttf, .otf or .woff with progress; errors show for 4 s; a
 * new font joins the list and the Uploaded category opens (docs/editor.md "Commands").
 */
export function FontPicker({ value, onChange, teamCanUpload }: FontPickerProps) {
  const [open, setOpen] = useState(false);
  const [category, setCategory] = useState(ALL_FONTS);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, FONT_SEARCH_DEBOUNCE_MS);
  const [active, setActive] = useState(-1);
  const [pages, setPages] = useState(1);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [valueLoaded, setValueLoaded] = useState(() => loadedFamilies.has(value));
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const queryClient = useQueryClient();
  // The lists load when the panel first opens, and are kept for the team (an upload joins them).
  const fontsKey = queryKeys.fonts(teamId);
  const lists = useQuery({
    queryKey: fontsKey,
    queryFn: ({ signal }) => loadFontLists(signal),
    enabled: open,
    staleTime: STALE_TIME.library,
  });
  const groups: FontGroup[] | null = lists.data?.groups ?? null;
  const custom: readonly CustomFont[] = lists.data?.custom ?? NO_FONTS;
  const listError = lists.isError
    ? isApiError(lists.error)
      ? lists.error.message
      : 'The fonts could not be loaded.'
    : null;

  // The button shows the current family in its own font.
  useEffect(() => {
    let live = true;
    setValueLoaded(loadedFamilies.has(value));
    loadFont(value).then(
      (r) => {
        if (r.source !== 'fallback') loadedFamilies.add(value);
        if (live) setValueLoaded(true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [value]);

  // Messages go away after 4 s (docs/editor.md "Commands", docs/editor.md "Messages").
  useEffect(() => {
    if (!message) return;
    const timer = window.setTimeout(() => setMessage(null), FONT_ERROR_MS);
    return () => window.clearTimeout(timer);
  }, [message]);

  const options = useMemo(
    () => filterFonts(groups ?? [], custom, category, debounced, value),
    [groups, custom, category, debounced, value],
  );
  const shown = Math.min(options.length, pages * FONT_PAGE_SIZE);

  // A new list starts at its top, with the current family active when it is listed.
  useEffect(() => {
    setPages(1);
    const at = options.findIndex((o) => o.family.toLowerCase() === value.toLowerCase());
    setActive(at >= 0 && at < FONT_PAGE_SIZE ? at : -1);
  }, [options, value]);

  // The virtualizer is used in this component only (never passed to a memoised child).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown,
    getScrollElement: () => listRef.current,
    estimateSize: () => FONT_ROW_HEIGHT,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= shown - 1 && shown < options.length) setPages((p) => p + 1);
  }, [lastIndex, shown, options.length]);

  // The active option stays in view: centred when the panel opens, then scrolled into view.
  const centred = useRef(false);
  useEffect(() => {
    if (!open) {
      centred.current = false;
      return;
    }
    if (active < 0 || active >= shown) return;
    virtualizer.scrollToIndex(active, { align: centred.current ? 'auto' : 'center' });
    centred.current = true;
  }, [active, open, shown, virtualizer]);

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    setSearch('');
    if (refocus) buttonRef.current?.focus();
  }, []);

  // A click outside closes the panel.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, close]);

  useEffect(() => {
    if (open) searchRef.current?.focus();
  }, [open]);

  const pick = async (option: FontRowOption) => {
    if (option.disabled) return;
    try {
      await loadFont(option.family);
      loadedFamilies.add(option.family);
      onChange(option.family);
      close(true);
    } catch (error) {
      setMessage({ tone: 'error', text: (error as Error).message });
    }
  };

  /** Escape in the open picker closes it and gives the focus back to the button. */
  const onPanelKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    }
  };

  /**
   * The listbox keys, on the search box (the combobox) and the listbox: Enter picks the active
   * option, arrows, Page Up/Down and Home/End move it. The category select and the upload button
   * keep their own keys.
   */
  const onListKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      const option = options[active];
      if (option) void pick(option);
      return;
    }
    if (['Home', 'End'].includes(e.key) && e.target === searchRef.current) return; // caret keys
    const next = moveActive(options, active, e.key);
    if (next !== active) {
      e.preventDefault();
      if (next >= shown) setPages(Math.ceil((next + 1) / FONT_PAGE_SIZE));
      setActive(next);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    if (!FONT_EXTENSIONS.test(file.name)) {
      setMessage({ tone: 'error', text: FONT_EXTENSION_MESSAGE });
      return;
    }
    setProgress(0);
    try {
      const stored = await storeFont(file, (p) =>
        setProgress(p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 0),
      );
      setFontSources({ custom: stored.customFonts });
      queryClient.setQueryData<FontLists>(fontsKey, (lists) =>
        lists ? { ...lists, custom: stored.customFonts } : lists,
      );
      setCategory(UPLOADED);
      setSearch('');
      setMessage({ tone: 'info', text: stored.message || `${stored.fontName} uploaded.` });
    } catch (error) {
      // docs/editor.md "Messages": network errors on upload are only logged; refusals show for 4 s.
      if (!isApiError(error) || error.status === 0) console.error('font upload failed', error);
      else setMessage({ tone: 'error', text: error.message });
    } finally {
      setProgress(null);
    }
  };

  const activeId = active >= 0 && active < shown ? `${baseId}-opt-${active}` : undefined;
  const categories = groups ? fontCategories(groups) : [ALL_FONTS, UPLOADED];

  return (
    // role="presentation": the handler only catches Escape bubbling up from the button and the
    // panel's controls; the wrapper itself is not interactive.
    <div className="font-picker" ref={rootRef} role="presentation" onKeyDown={onPanelKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        className="font-picker__button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Font: ${value}`}
        onClick={() => (open ? close(false) : setOpen(true))}
        style={{ fontFamily: valueLoaded ? fontFamilyList(value) : undefined }}
      >
        <span className="font-picker__value">{value}</span>
        <span aria-hidden="true" className="font-picker__caret">
          ▾
        </span>
      </button>
      {open && (
        <div className="font-picker__panel" role="group" aria-label="Choose a font">
          <div className="font-picker__filters">
            <label className="font-picker__field">
              <span className="font-picker__label">Category</span>
              <select
                className="input input--select"
                value={category}
                onChange={(e) => setCategory(e.target.value)}
              >
                {categories.map((c) => (
                  <option key={c} value={c} disabled={c === UPLOADED && !teamCanUpload}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <label className="font-picker__field">
              <span className="font-picker__label">Search fonts</span>
              <input
                ref={searchRef}
                className="input"
                type="search"
                role="combobox"
                aria-expanded="true"
                aria-controls={listId}
                aria-autocomplete="list"
                aria-activedescendant={activeId}
                value={search}
                placeholder="Font name"
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={onListKeyDown}
              />
            </label>
          </div>
          {listError ? (
            <p className="font-picker__empty" role="alert">
              {listError}
            </p>
          ) : !groups ? (
            <p className="font-picker__empty" role="status">
              Loading fonts…
            </p>
          ) : options.length === 0 ? (
            <p className="font-picker__empty" role="status">
              No Font
            </p>
          ) : null}
          <div
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label="Fonts"
            tabIndex={-1}
            onKeyDown={onListKeyDown}
            className="font-picker__list"
            hidden={!groups || options.length === 0}
            style={{ height: FONT_LIST_HEIGHT }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const option = options[item.index]!;
                return (
                  <FontRow
                    key={option.family}
                    option={option}
                    id={`${baseId}-opt-${item.index}`}
                    selected={option.family.toLowerCase() === value.toLowerCase()}
                    active={item.index === active}
                    top={item.start}
                    onPick={() => void pick(option)}
                  />
                );
              })}
            </div>
          </div>
          <div className="font-picker__footer">
            {teamCanUpload ? (
              <>
                <input
                  ref={fileRef}
                  type="file"
                  accept=".ttf,.otf,.woff"
                  hidden
                  onChange={(e) => void onFile(e.target.files?.[0])}
                />
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={progress !== null}
                  onClick={() => fileRef.current?.click()}
                >
                  {progress === null ? 'Upload font' : `Uploading… ${progress}%`}
                </button>
                {progress !== null && (
                  <progress className="font-picker__progress" max={100} value={progress}>
                    {progress}%
                  </progress>
                )}
              </>
            ) : (
              <p className="font-picker__pro">
                {PRO_ONLY_MESSAGE} {teamId && <Link to={subscriptionPath(teamId)}>Upgrade</Link>}
              </p>
            )}
            {message && (
              <p
                className={`font-picker__message font-picker__message--${message.tone}`}
                role={message.tone === 'error' ? 'alert' : 'status'}
              >
                {message.text}
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
