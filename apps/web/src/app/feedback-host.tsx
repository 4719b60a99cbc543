import { message, notification } from 'antd';
import { useEffect } from 'react';
import { bindFeedback } from '../lib/feedback';

/**
 * antd's message and notification holders, inside the providers (theme, locale), handed to
 * lib/feedback. Loaded and mounted with the first toast (app/providers.tsx).
 */
export default function FeedbackHost() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  useEffect(() => bindFeedback(messageApi, notificationApi), [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}
