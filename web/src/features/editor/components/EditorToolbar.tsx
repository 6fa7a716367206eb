import { COMMANDS, runCommand, type CommandName } from '../commands.ts';
import { IS_MAC, shortcutLabel } from '../keyboard.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { SaveTemplateButton } from './SaveTemplateModal.tsx';
import { ImageToolbar } from './ImageToolbar.tsx';
import { WatermarkToggle } from '../watermark/WatermarkToggle.tsx';
import { GifControls } from '../gif/GifControls.tsx';
import { OutputQuality } from '../output/OutputQuality.tsx';

/** Whether `Mod` means ⌘ on this device (kept in keyboard.ts, which every field can import). */
export { IS_MAC };

/** A command's button title: its label and its first shortcut ("Undo (Ctrl+Z)"). */
function titleOf(name: CommandName): string {
  const command = COMMANDS[name];
  const first = command.shortcuts[0];
  return first ? `${command.label} (${shortcutLabel(first.keys, IS_MAC)})` : command.label;
}

/**
 * A toolbar button that runs a command: named by the command's label, titled with its
 * shortcut, disabled while the command is not enabled
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore": "undo and redo flags").
 */
function CommandButton({ name, icon }: { name: 'undo' | 'redo'; icon: string }) {
  const { store } = useEditorContext();
  const enabled = useEditor((s) => COMMANDS[name].enabled(s));
  return (
    <button
      type="button"
      className="button button--small button--secondary editor-toolbar__button"
      title={titleOf(name)}
      disabled={!enabled}
      onClick={() => runCommand(store, name)}
    >
      <span aria-hidden="true">{icon}</span> {COMMANDS[name].label}
    </button>
  );
}

/**
 * The design's pages the toolbar opens in a new window, so the editor stays open: the export
 * screen and the analytics page (docs/analytics.md "The page").
 */
const DESIGN_PAGES = [
  { page: 'export', name: 'Export' },
  { page: 'analytics', name: 'Analytics' },
] as const;

/**
 * The image toolbar (docs/editor.md "Architecture"). This slice has undo and redo and the canvas
 * size display; filters, enhance, crop, rotate and the size counters with units come next
 * (docs/editor.md).
 */
export function EditorToolbar() {
  const width = useEditor((s) => s.design?.canvas_width ?? 0);
  const height = useEditor((s) => s.design?.canvas_height ?? 0);
  const designId = useEditor((s) => s.meta?.id ?? '');
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Image tools">
      <CommandButton name="undo" icon="↶" />
      <CommandButton name="redo" icon="↷" />
      <ImageToolbar />
      <WatermarkToggle />
      <OutputQuality />
      <GifControls />
      <GifControls kind="sticker" />
      <p className="editor-toolbar__size muted small" data-testid="canvas-size">
        Canvas {width} × {height} px
      </p>
      <SaveTemplateButton />
      {designId &&
        DESIGN_PAGES.map(({ page, name }) => (
          <a
            key={page}
            href={`/pic-snippet/${encodeURIComponent(designId)}/${page}`}
            className="button button--small button--secondary editor-toolbar__button"
            target="_blank"
            rel="noopener"
          >
            {name}
            <span className="visually-hidden"> (opens in a new window)</span>
          </a>
        ))}
    </div>
  );
}
