import { Button, type ButtonProps } from 'antd';
import { type ComponentType, useState } from 'react';
import { errorText, toastError } from '../lib/feedback';

/** What a dialog opened by a DialogButton gets besides its own props. */
export interface DialogProps {
  open: boolean;
  onClose: () => void;
}

export type DialogButtonProps<P extends object> = Omit<ButtonProps, 'onClick' | 'loading'> & {
  /** The dialog's code, loaded on the first click (a page does not pay for a dialog it may never open). */
  load: () => Promise<ComponentType<P & DialogProps>>;
  /** The dialog's own props. */
  dialogProps: P;
  /** Keep the dialog mounted once opened (a running job's state survives closing); else it unmounts on close. */
  keepMounted?: boolean;
};

/** A button that opens a dialog whose code loads on the first click. */
export function DialogButton<P extends object>({ load, dialogProps, keepMounted = false, ...button }: DialogButtonProps<P>) {
  const [Dialog, setDialog] = useState<ComponentType<P & DialogProps> | null>(null);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);

  const show = async () => {
    if (!Dialog) {
      setLoading(true);
      try {
        const loaded = await load();
        // A component is a function: keep it as state, not call it.
        setDialog(() => loaded);
      } catch {
        toastError(errorText('unknown_error'));
        return;
      } finally {
        setLoading(false);
      }
    }
    setOpen(true);
    setOpened(true);
  };

  const mounted = Dialog && (keepMounted ? opened : open);
  return (
    <>
      <Button {...button} loading={loading} onClick={() => void show()} />
      {mounted && <Dialog {...dialogProps} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
