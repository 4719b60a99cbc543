/** Where to go after logging in (the page that sent the user to /login). */
const KEY = 'return_to';

export const rememberReturnPath = (path: string) => {
  if (path.startsWith('/login') || path.startsWith('/link3_login') || path === '/') return;
  sessionStorage.setItem(KEY, path);
};

export const takeReturnPath = (): string => {
  const path = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return path || '/dashboard';
};

/** An explicit logout starts over: the next login, maybe of someone else, lands on the dashboard. */
export const forgetReturnPath = () => sessionStorage.removeItem(KEY);
