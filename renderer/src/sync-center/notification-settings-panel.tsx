// Notification settings: on or off, which kinds (assigned to me, status of my
// tasks, comments on my tasks, conflicts that need me), quiet hours, and
// whether closing the window keeps syncing in the tray. Saved as changed.
import { useEffect } from 'react';
import {
  changeNotificationSettings,
  loadNotificationSettings,
  type NotificationSettings,
  useSyncCenter,
} from './sync-center-store';

const KIND_WORDS: { kind: keyof NotificationSettings['kinds']; label: string; hint: string }[] = [
  { kind: 'task-assigned', label: 'A task is assigned to me', hint: 'Someone else gave you a task.' },
  {
    kind: 'task-status-changed',
    label: 'The status of my task changes',
    hint: 'On tasks assigned to you or that you created.',
  },
  { kind: 'task-commented', label: 'A new comment on my task', hint: 'Comments by others, never your own.' },
  { kind: 'task-mentioned', label: 'Someone mentions me', hint: 'A comment naming you with @, on any task.' },
  {
    kind: 'task-conflict',
    label: 'A conflict needs me',
    hint: 'Your edit and someone else’s changed the same field.',
  },
];

const QUIET_ENDS = [
  { end: 'start', word: 'From', label: 'Quiet hours start' },
  { end: 'end', word: 'to', label: 'Quiet hours end' },
] as const;

export function NotificationSettingsPanel() {
  const settings = useSyncCenter((state) => state.settings);
  useEffect(() => {
    void loadNotificationSettings();
  }, []);
  if (settings === null) return <p className="muted">Loading…</p>;
  const quiet = settings.quiet_hours;
  return (
    <form className="notification-settings" onSubmit={(event) => event.preventDefault()}>
      <fieldset>
        <legend>Desktop notifications</legend>
        <label className="setting-row">
          <input
            type="checkbox"
            checked={settings.enabled}
            onChange={(event) => void changeNotificationSettings({ enabled: event.target.checked })}
          />
          <span>
            Show desktop notifications
            <span className="hint">
              Several changes at once come as one notification. Never for your own edits, nor for the first
              sync.
            </span>
          </span>
        </label>
        {KIND_WORDS.map(({ kind, label, hint }) => (
          <label key={kind} className="setting-row setting-indented">
            <input
              type="checkbox"
              checked={settings.kinds[kind]}
              disabled={!settings.enabled}
              onChange={(event) =>
                void changeNotificationSettings({ kinds: { [kind]: event.target.checked } })
              }
            />
            <span>
              {label}
              <span className="hint">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Quiet hours</legend>
        <label className="setting-row">
          <input
            type="checkbox"
            checked={quiet.enabled}
            onChange={(event) =>
              void changeNotificationSettings({ quiet_hours: { enabled: event.target.checked } })
            }
          />
          <span>
            No notifications during quiet hours
            <span className="hint">What arrives meanwhile is still marked in the tray and the lists.</span>
          </span>
        </label>
        <div className="setting-row setting-indented quiet-times">
          {QUIET_ENDS.map(({ end, word, label }) => (
            <label key={end}>
              {word}{' '}
              <input
                type="time"
                aria-label={label}
                value={quiet[end]}
                disabled={!quiet.enabled}
                onChange={(event) =>
                  event.target.value !== '' &&
                  void changeNotificationSettings({ quiet_hours: { [end]: event.target.value } })
                }
              />
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Closing the window</legend>
        <label className="setting-row">
          <input
            type="checkbox"
            checked={settings.keep_running_in_tray}
            onChange={(event) =>
              void changeNotificationSettings({ keep_running_in_tray: event.target.checked })
            }
          />
          <span>
            Keep syncing in the tray when the window is closed
            <span className="hint">Quit from the tray menu to stop the app.</span>
          </span>
        </label>
      </fieldset>
    </form>
  );
}
