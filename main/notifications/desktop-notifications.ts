// Shows the notifications the notifier decided on, as native notifications;
// a click goes to `onClick`. Display only: what to show is decided in services/notify.
import { Notification } from 'electron';
import type { DesktopNotification } from '../../services/notify/notification-decisions';

/** Shown notifications are kept until closed or clicked: a collected one loses its click handler. */
const shown = new Set<Notification>();

export function showDesktopNotifications(
  batch: readonly DesktopNotification[],
  onClick: (notification: DesktopNotification) => void,
): void {
  if (!Notification.isSupported()) return;
  for (const item of batch) {
    const notification = new Notification({ title: item.title, body: item.body });
    shown.add(notification);
    notification.on('click', () => {
      shown.delete(notification);
      onClick(item);
    });
    notification.on('close', () => shown.delete(notification));
    notification.show();
  }
}
