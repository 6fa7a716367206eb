import { useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { CUSTOM_DATA_MODAL_KEY, showCustomDataIntro } from './model.ts';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The custom-data intro (docs/export.md "The screen"): it explains how a platform fills the
 * parameters, and shows each time the screen opens until the user chooses "Don't show it again"
 * (`localStorage.customDataModal = 0`).
 */
export function CustomDataIntro() {
  const [open, setOpen] = useState(() => showCustomDataIntro(storage()));
  const never = () => {
    try {
      storage()?.setItem(CUSTOM_DATA_MODAL_KEY, '0');
    } catch {
      // Storage blocked: it shows again next time; nothing else to do.
    }
    setOpen(false);
  };
  return (
    <Modal
      open={open}
      title="Custom data for each recipient"
      onCancel={() => setOpen(false)}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={never}>
            Don&apos;t show it again
          </button>
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>
            Got it
          </button>
        </>
      }
    >
      <p>
        Each parameter of this PicSnippet (like <code>first_name</code>) takes its value from your
        platform: choose the platform, then the merge field that holds each value, or type a fixed
        value.
      </p>
      <p>
        Generate gives you the HTML, the direct link or the script to paste into the platform. Each
        recipient then sees the image drawn with their own data, and the fallback where a value is
        missing.
      </p>
    </Modal>
  );
}
