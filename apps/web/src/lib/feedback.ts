import { ERROR_SUPPRESS_MS, NOTIFICATION_DURATION_MS, TOAST_DURATION_MS } from '@iot/contract';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { i18n } from './i18n';

/**
 * Toasts and notifications. The antd App component provides context-aware
 * instances (theme, locale); a bridge in app/ hands them over with
 * `bindFeedback`, so non-React code (the api client) can show messages.
 */
let messageApi: MessageInstance | null = null;
let notificationApi: NotificationInstance | null = null;
let lastErrorAt = -Infinity;

export const bindFeedback = (m: MessageInstance, n: NotificationInstance) => {
  messageApi = m;
  notificationApi = n;
};

/** Error toast; a second one within ERROR_SUPPRESS_MS of the last is dropped. */
export const toastError = (text: string) => {
  const now = Date.now();
  if (now - lastErrorAt < ERROR_SUPPRESS_MS) return;
  lastErrorAt = now;
  messageApi?.error({ content: text, duration: TOAST_DURATION_MS / 1000 });
};

export const toastSuccess = (text: string) => {
  messageApi?.success({ content: text, duration: TOAST_DURATION_MS / 1000 });
};

export const toastInfo = (text: string) => {
  messageApi?.info({ content: text, duration: TOAST_DURATION_MS / 1000 });
};

export const notify = (type: 'success' | 'info' | 'warning' | 'error', title: string, description?: string) => {
  notificationApi?.[type]({ title, description, duration: NOTIFICATION_DURATION_MS / 1000 });
};

/** Message for an error code in the current language (`errors.<code>`). */
export const errorText = (code: number | string): string => {
  const key = `errors.${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('errors.unknown_error');
};
