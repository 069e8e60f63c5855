// The app's window: opened where it was last closed (clamped to a visible
// display by ./window-bounds), hardened webPreferences, and its bounds saved
// to the settings file when it closes.
import { BrowserWindow, nativeTheme, screen } from 'electron';
import { secureWebPreferences } from '../security/web-preferences';
import type { SettingsStore } from '../settings/settings-store';
import { placeWindow } from './window-bounds';

const DEFAULT_SIZE = { width: 1280, height: 820 };
const MINIMUM_SIZE = { width: 720, height: 480 };

export interface MainWindowOptions {
  readonly url: string;
  readonly preloadPath: string;
  readonly settings: SettingsStore;
  readonly devTools: boolean;
  readonly title: string;
  /** Runs before the page starts loading: main trusts the window's webContents with the IPC gate here. */
  readonly beforeLoad: (window: BrowserWindow) => void;
}

export function openMainWindow(options: MainWindowOptions): BrowserWindow {
  const saved = options.settings.get().window;
  const primary = screen.getPrimaryDisplay();
  const displays = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)];
  const bounds = placeWindow({
    saved: saved.bounds,
    workAreas: displays.map((display) => display.workArea),
    defaultSize: DEFAULT_SIZE,
    minimumSize: MINIMUM_SIZE,
  });

  const window = new BrowserWindow({
    ...bounds,
    minWidth: MINIMUM_SIZE.width,
    minHeight: MINIMUM_SIZE.height,
    title: options.title,
    show: false,
    // Painted before the page is, so a dark OS does not flash white.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1f1f1f' : '#ffffff',
    webPreferences: secureWebPreferences({ preloadPath: options.preloadPath, devTools: options.devTools }),
  });
  window.once('ready-to-show', () => {
    if (saved.maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    const closing = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    options.settings.update((current) => ({ ...current, window: closing }));
  });
  options.beforeLoad(window);
  void window.loadURL(options.url);
  return window;
}

/** What a second launch does: bring the existing window forward. */
export function bringToFront(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
