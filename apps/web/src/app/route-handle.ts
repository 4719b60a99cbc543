/** What a route table entry tells the shell (title, access, frame). */
export interface RouteHandle {
  /** i18n key of the page title. */
  title?: string;
  /** Permission unit (CONTRACT §5): the user's menus must hold it. */
  menuKey?: string;
  /** Only the super administrator (user_type 1). */
  superOnly?: boolean;
  /** Hide the content frame (MENU_TREE fullWidth). */
  fullWidth?: boolean;
}

export const isRouteHandle = (h: unknown): h is RouteHandle => typeof h === 'object' && h !== null;
