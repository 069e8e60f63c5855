// settings:get / settings:set: the preferences the renderer owns, applied
// (theme → nativeTheme) and announced to every window when they change.
import type { RendererSettings, ThemePreference } from '../../ipc/contract';
import type { IpcGate, IpcHandlers } from '../ipc/gate';
import type { Settings, SettingsStore } from './settings-store';

export interface SettingsHandlerDependencies {
  readonly store: SettingsStore;
  /** Makes the OS-facing theme follow the preference (`nativeTheme.themeSource` in main). */
  readonly applyTheme: (theme: ThemePreference) => void;
  readonly emit: IpcGate['emit'];
}

export function rendererSettings(settings: Settings): RendererSettings {
  return { theme: settings.theme };
}

export function settingsHandlers(dependencies: SettingsHandlerDependencies): IpcHandlers {
  const { store, applyTheme, emit } = dependencies;
  return {
    'settings:get': () => rendererSettings(store.get()),
    'settings:set': (change) => {
      const next = store.update((current) => ({ ...current, theme: change.theme ?? current.theme }));
      applyTheme(next.theme);
      emit('settings:changed', rendererSettings(next));
      return rendererSettings(next);
    },
  };
}
