import { useNavigate } from 'react-router-dom';
import { useAppStore } from '../state/store.ts';
import { Modal } from './Modal.tsx';

/** Spec 001 §8: a 401 while signed in logs the client out and opens this modal. */
export function SessionExpiredModal() {
  const expired = useAppStore((s) => s.sessionExpired);
  const dismiss = useAppStore((s) => s.dismissSessionExpired);
  const navigate = useNavigate();
  return (
    <Modal
      open={expired}
      title="Your session has expired"
      role="alertdialog"
      actions={
        <button
          type="button"
          className="button"
          data-autofocus
          onClick={() => {
            dismiss();
            navigate('/login');
          }}
        >
          Sign in
        </button>
      }
    >
      <p>You have been signed out. Sign in again to continue where you left off.</p>
    </Modal>
  );
}
