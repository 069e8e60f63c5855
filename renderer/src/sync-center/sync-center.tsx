// The sync screen: the account panel (state and freshness, pause), the
// searchable sync log, and notification settings, as three tabs.
import './sync-center.css';
import { navigate, type SyncTab } from '../store/view-store';
import { AccountPanel } from './account-panel';
import { NotificationSettingsPanel } from './notification-settings-panel';
import { AttachmentCacheSetting } from './attachment-cache-setting';
import { SyncLogView } from './sync-log-view';

const TABS: { tab: SyncTab; label: string }[] = [
  { tab: 'status', label: 'Status' },
  { tab: 'log', label: 'Sync log' },
  { tab: 'notifications', label: 'Notifications' },
];

export function SyncCenter({ tab }: { tab: SyncTab }) {
  return (
    <section className="sync-center" aria-labelledby="sync-center-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="sync-center-title">Sync</h1>
        </div>
        <div className="sync-tabs" role="tablist" aria-label="Sync">
          {TABS.map((t) => (
            <button
              key={t.tab}
              type="button"
              role="tab"
              id={`sync-tab-${t.tab}`}
              aria-selected={t.tab === tab}
              aria-controls="sync-tab-panel"
              className={`sync-tab${t.tab === tab ? ' is-current' : ''}`}
              onClick={() => navigate({ kind: 'sync', tab: t.tab })}
            >
              {t.label}
            </button>
          ))}
        </div>
      </header>
      <div className="sync-tab-panel" id="sync-tab-panel" role="tabpanel" aria-labelledby={`sync-tab-${tab}`}>
        {tab === 'status' ? (
          <AccountPanel />
        ) : tab === 'log' ? (
          <SyncLogView />
        ) : (
          <>
            <NotificationSettingsPanel />
            <AttachmentCacheSetting />
          </>
        )}
      </div>
    </section>
  );
}
