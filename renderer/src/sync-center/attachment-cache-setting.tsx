// How much of the attachments' content this computer keeps for opening
// offline: what the signed-in account uses of it and the size, settable here
// beside the other settings. Kept in settings.json by main; each account's
// engine evicts the least recently opened past it at its next fill.
import { useState } from 'react';
import type { AttachmentCache } from '../../../ipc/attachment-schemas';
import { invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { showProblem } from '../store/session-store';
import { sizeWords } from '../vocabulary/size-words';

const MB = 1024 ** 2;
const GB = 1024 ** 3;
/** The sizes offered; one set another way (settings.json) is offered too. */
export const CACHE_SIZES = [0, 256 * MB, 512 * MB, GB, 2 * GB, 5 * GB, 10 * GB, 20 * GB];

function choiceWords(bytes: number): string {
  return bytes === 0 ? 'None (open attachments online only)' : sizeWords(bytes);
}

export function AttachmentCacheSetting() {
  const read = useBridgeRead('attachment-cache:get', undefined);
  const [saved, setSaved] = useState<AttachmentCache | null>(null);
  const cache = saved ?? read.data;
  if (cache === null) return <p className="muted">Loading…</p>;
  const sizes = CACHE_SIZES.includes(cache.limit_bytes)
    ? CACHE_SIZES
    : [...CACHE_SIZES, cache.limit_bytes].sort((a, b) => a - b);

  async function change(limit_bytes: number): Promise<void> {
    try {
      setSaved(await invoke('attachment-cache:set', { limit_bytes }));
    } catch (error) {
      showProblem(error, 'Changing the space for attachments');
    }
  }

  return (
    <form className="notification-settings" onSubmit={(event) => event.preventDefault()}>
      <fieldset>
        <legend>Attachments on this computer</legend>
        <p className="setting-row" data-testid="attachment-cache-use">
          {`${sizeWords(cache.used_bytes)} of ${sizeWords(cache.limit_bytes)} used`}
        </p>
        <label className="setting-row">
          <span>
            Space for attachments
            <span className="hint">
              Kept for the tasks you are likely to open, so they open offline; the least recently opened go
              first. Files you add and not yet sent are always kept.
            </span>
          </span>
          <select value={cache.limit_bytes} onChange={(event) => void change(Number(event.target.value))}>
            {sizes.map((bytes) => (
              <option key={bytes} value={bytes}>
                {choiceWords(bytes)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
    </form>
  );
}
