import { useEffect, useRef } from 'react';
import { Notice } from './Notice.tsx';

/** A message under a form or beside a control: a success or an error, in words. */
export interface FormMessage {
  tone: 'success' | 'error';
  text: string;
}

/**
 * The outcome of an action on a list item (remove a member, accept an invitation, delete a
 * token). `focus` asks for the notice to take focus: set it when the control that was used
 * disappears with its item, so keyboard and screen-reader users are not left on nothing.
 */
export interface ActionMessage extends FormMessage {
  focus?: boolean;
}

/**
 * Shows an {@link ActionMessage} (errors as `alert`, success as `status`, see Notice) and, when
 * it asks for focus, moves focus to it once it is on the page.
 */
export function ActionNotice({ message }: { message: ActionMessage | null | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message?.focus) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div ref={ref} tabIndex={-1} className="focus-target">
      <Notice tone={message.tone}>{message.text}</Notice>
    </div>
  );
}
