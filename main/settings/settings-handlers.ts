// settings:get / settings:set: the preferences the renderer owns, applied
// (theme → nativeTheme) and announced to every window when they change; and
// the attachments' cache size with what the signed-in account keeps in it.
import type { RendererSettings, ThemePreference } from '../../ipc/contract';
import { DEFAULT_ATTACHMENT_CACHE_BYTES } from '../../sync/attachments/attachment-cache';
import type { IpcGate, IpcHandlers } from '../ipc/gate';
import type { Settings, SettingsStore } from './settings-store';

export interface SettingsHandlerDependencies {
  readonly store: SettingsStore;
  /** Makes the OS-facing theme follow the preference (`nativeTheme.themeSource` in main). */
  readonly applyTheme: (theme: ThemePreference) => void;
  readonly emit: IpcGate['emit'];
  /** Bytes of attachments' content the signed-in account keeps (0 when none is signed in). */
  readonly attachmentBytesKept?: () => number;
}

export function rendererSettings(settings: Settings): RendererSettings {
  return { theme: settings.theme };
}

export function settingsHandlers(dependencies: SettingsHandlerDependencies): IpcHandlers {
  const { store, applyTheme, emit } = dependencies;
  const attachmentCache = () => ({
    limit_bytes: store.get().attachment_cache_bytes ?? DEFAULT_ATTACHMENT_CACHE_BYTES,
    used_bytes: dependencies.attachmentBytesKept?.() ?? 0,
  });
  return {
    'settings:get': () => rendererSettings(store.get()),
    'attachment-cache:get': () => attachmentCache(),
    'attachment-cache:set': ({ limit_bytes }) => {
      // Each account's engine reads it at every fill: the next evicts past the new size.
      store.update((current) => ({ ...current, attachment_cache_bytes: limit_bytes }));
      return attachmentCache();
    },
    'settings:set': (change) => {
      const next = store.update((current) => ({ ...current, theme: change.theme ?? current.theme }));
      applyTheme(next.theme);
      emit('settings:changed', rendererSettings(next));
      return rendererSettings(next);
    },
  };
}
