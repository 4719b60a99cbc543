import { Drawer } from 'antd';
import type { ReactNode } from 'react';

/** The phone's menu drawer (loaded by app-layout.tsx on the first tap of the menu button: desktops never need it). */
export default function MenuDrawer({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer placement="left" open={open} onClose={onClose} size={260} title={title} styles={{ body: { padding: 0 } }}>
      {children}
    </Drawer>
  );
}
