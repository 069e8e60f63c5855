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

/** A setting turned on or off: its label, a hint under it, saved as changed. */
function CheckboxSetting({
  label,
  hint,
  indented = false,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint: string;
  /** Under the setting it depends on. */
  indented?: boolean;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => Promise<void>;
}) {
  return (
    <label className={indented ? 'setting-row setting-indented' : 'setting-row'}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => void onChange(event.target.checked)}
      />
      <span>
        {label}
        <span className="hint">{hint}</span>
      </span>
    </label>
  );
}

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
        <CheckboxSetting
          label="Show desktop notifications"
          hint="Several changes at once come as one notification. Never for your own edits, nor for the first sync."
          checked={settings.enabled}
          onChange={(enabled) => changeNotificationSettings({ enabled })}
        />
        {KIND_WORDS.map(({ kind, label, hint }) => (
          <CheckboxSetting
            key={kind}
            label={label}
            hint={hint}
            indented
            checked={settings.kinds[kind]}
            disabled={!settings.enabled}
            onChange={(on) => changeNotificationSettings({ kinds: { [kind]: on } })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Quiet hours</legend>
        <CheckboxSetting
          label="No notifications during quiet hours"
          hint="What arrives meanwhile is still marked in the tray and the lists."
          checked={quiet.enabled}
          onChange={(enabled) => changeNotificationSettings({ quiet_hours: { enabled } })}
        />
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
        <CheckboxSetting
          label="Keep syncing in the tray when the window is closed"
          hint="Quit from the tray menu to stop the app."
          checked={settings.keep_running_in_tray}
          onChange={(keep_running_in_tray) => changeNotificationSettings({ keep_running_in_tray })}
        />
      </fieldset>
    </form>
  );
}
