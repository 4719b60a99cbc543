import { ERROR_SUPPRESS_MS, NOTIFICATION_DURATION_MS, TOAST_DURATION_MS } from '@iot/contract';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { i18n } from './i18n';

/**
 * Toasts and notifications, for React and non-React code (the api client) alike. antd's
 * context-aware instances (theme, locale) come from a host that app/ mounts inside the
 * providers only when the first toast is asked for (message and notification are not start-up
 * code): until it binds them with `bindFeedback`, toasts wait in a queue.
 */
interface FeedbackApis {
  message: MessageInstance;
  notification: NotificationInstance;
}
let apis: FeedbackApis | null = null;
let queued: Array<(a: FeedbackApis) => void> = [];
let hostWanted = false;
const hostListeners = new Set<() => void>();
let lastErrorAt = -Infinity;

/** The host's mount switch (app/providers.tsx): true from the first toast on. */
export const isFeedbackHostWanted = () => hostWanted;
export const subscribeFeedbackHost = (listener: () => void) => {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
};

export const bindFeedback = (message: MessageInstance, notification: NotificationInstance) => {
  apis = { message, notification };
  const waiting = queued;
  queued = [];
  for (const show of waiting) show(apis);
};

const withApis = (show: (a: FeedbackApis) => void) => {
  if (apis) {
    show(apis);
    return;
  }
  queued.push(show);
  if (!hostWanted) {
    hostWanted = true;
    for (const l of hostListeners) l();
  }
};

/** Error toast; a second one within ERROR_SUPPRESS_MS of the last is dropped. */
export const toastError = (text: string) => {
  const now = Date.now();
  if (now - lastErrorAt < ERROR_SUPPRESS_MS) return;
  lastErrorAt = now;
  withApis((a) => a.message.error({ content: text, duration: TOAST_DURATION_MS / 1000 }));
};

export const toastSuccess = (text: string) => {
  withApis((a) => a.message.success({ content: text, duration: TOAST_DURATION_MS / 1000 }));
};

export const toastInfo = (text: string) => {
  withApis((a) => a.message.info({ content: text, duration: TOAST_DURATION_MS / 1000 }));
};

export const notify = (type: 'success' | 'info' | 'warning' | 'error', title: string, description?: string) => {
  withApis((a) => a.notification[type]({ title, description, duration: NOTIFICATION_DURATION_MS / 1000 }));
};

/** Message for an error code in the current language (`errors.<code>`). */
export const errorText = (code: number | string): string => {
  const key = `errors.${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('errors.unknown_error');
};
