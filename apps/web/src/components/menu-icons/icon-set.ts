import type { ComponentType } from 'react';

/** Menu icons by name (the `icon` of a menu row). */
export type MenuIconSet = Record<string, ComponentType<{ className?: string }>>;
