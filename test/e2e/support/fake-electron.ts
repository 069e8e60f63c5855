// A stand-in for the `electron` module, for running the BUILT main process
// (out/main/index.js) in plain Node where Electron cannot start: the main
// process APIs main uses, recording what they are asked, plus a driver that
// plays the window and the person once the window loads its page. Every step
// is printed to stdout as one JSON line for test/e2e/electron-main.test.ts.
// Only that test uses it (copied in as node_modules/electron of a temp app).
import { EventEmitter } from 'node:events';
import { join } from 'node:path';

const report = (step: string, detail: unknown = null) => {
  process.stdout.write(`${JSON.stringify({ step, detail })}\n`);
};

type Listener = (...args: unknown[]) => unknown;

const appEvents = new EventEmitter();
let quitCalls = 0;
let readyResolve: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (readyResolve = resolve));

export const app = {
  isPackaged: false,
  name: 'svc-desktop',
  requestSingleInstanceLock: () => {
    report('single-instance-lock');
    return true;
  },
  enableSandbox: () => report('sandbox'),
  setAppUserModelId: () => undefined,
  setAsDefaultProtocolClient: (scheme: string) => {
    report('protocol-client', scheme);
    return true;
  },
  whenReady: () => ready,
  on: (event: string, listener: Listener) => {
    appEvents.on(event, listener);
    return app;
  },
  getPath: (name: string) => {
    if (name !== 'userData') throw new Error(`getPath(${name}) is not faked`);
    return process.env['FAKE_USER_DATA'] ?? '';
  },
  getAppPath: () => process.env['FAKE_APP_PATH'] ?? '',
  getName: () => 'svc-desktop',
  getVersion: () => '0.0.0-smoke',
  quit: () => {
    quitCalls += 1;
    report('app.quit', quitCalls);
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    appEvents.emit('before-quit', event);
    if (!event.defaultPrevented) {
      report('quit-done');
      process.exit(0);
    }
  },
  exit: (code: number) => {
    report('app.exit', code);
    process.exit(code);
  },
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown) => report('register-schemes', schemes),
};

const handlers = new Map<string, Listener>();
export const ipcMain = {
  handle: (channel: string, listener: Listener) => handlers.set(channel, listener),
  removeHandler: (channel: string) => handlers.delete(channel),
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => report('permission-request-handler'),
    setPermissionCheckHandler: () => undefined,
    webRequest: { onHeadersReceived: () => report('csp-header-hook') },
    protocol: { handle: (scheme: string) => report('protocol-handle', scheme) },
  },
};

export const safeStorage = {
  isEncryptionAvailable: () => true,
  encryptString: (text: string) => Buffer.from(`sealed:${text}`),
  decryptString: (data: Buffer) => data.toString().replace(/^sealed:/, ''),
  getSelectedStorageBackend: () => 'gnome_libsecret',
  setUsePlainTextEncryption: () => undefined,
};

export const nativeTheme = { themeSource: 'system', shouldUseDarkColors: false };
export const screen = {
  getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
  getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};
export const dialog = {
  showErrorBox: (title: string, content: string) => report('error-box', { title, content }),
  // Every question is answered with its cancel button.
  showMessageBox: (...args: unknown[]) => {
    const options = args.at(-1) as { message?: string; cancelId?: number };
    report('message-box', { message: options.message });
    return Promise.resolve({ response: options.cancelId ?? 0, checkboxChecked: false });
  },
};
export const shell = {
  openExternal: (url: string) => {
    report('open-external', url);
    return Promise.resolve();
  },
};
export const clipboard = { writeText: () => undefined };
export const net = { isOnline: () => true };
const powerEvents = new EventEmitter();
export const powerMonitor = {
  on: (event: string, listener: Listener) => {
    report('power-monitor', event);
    powerEvents.on(event, listener);
    return powerMonitor;
  },
};
export const nativeImage = { createFromBitmap: () => ({}) };
export const Menu = { buildFromTemplate: (items: unknown[]) => ({ items }) };

export class Tray {
  constructor() {
    report('tray');
  }
  setImage() {}
  setToolTip() {}
  setContextMenu() {}
  on() {}
  destroy() {
    report('tray-destroyed');
  }
}

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  show() {}
}

let nextWindowId = 1;
export class BrowserWindow extends EventEmitter {
  static windows: BrowserWindow[] = [];
  static getAllWindows() {
    return BrowserWindow.windows;
  }
  readonly webContents: EventEmitter & {
    id: number;
    isDestroyed(): boolean;
    send(channel: string, message: unknown): void;
  };
  constructor(readonly options: { webPreferences: Record<string, unknown> }) {
    super();
    const contents = Object.assign(new EventEmitter(), {
      id: nextWindowId++,
      isDestroyed: () => false,
      send: (channel: string, message: unknown) => report('event-sent', { channel, message }),
      setWindowOpenHandler: () => undefined,
    });
    this.webContents = contents;
    BrowserWindow.windows.push(this);
    appEvents.emit('web-contents-created', {}, contents);
    report('window', {
      webPreferences: { ...options.webPreferences, preload: String(options.webPreferences['preload']) },
    });
  }
  loadURL(url: string) {
    report('load-url', url);
    void drive(this, url);
    return Promise.resolve();
  }
  show() {}
  hide() {}
  focus() {}
  restore() {}
  maximize() {}
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  isVisible() {
    return true;
  }
  isDestroyed() {
    return false;
  }
  getNormalBounds() {
    return { x: 10, y: 10, width: 1280, height: 820 };
  }
}

/** The page's calls, as the preload makes them: through the one invoke channel, from the window's top frame. */
async function invoke(window: BrowserWindow, pageUrl: string, channel: string, input?: unknown) {
  const listener = handlers.get('svc:invoke') ?? [...handlers.values()][0];
  if (!listener) throw new Error('main registered no IPC handler');
  const event = { sender: { id: window.webContents.id }, senderFrame: { url: pageUrl, parent: null } };
  return (await listener(event, { channel, input })) as { ok: boolean; value?: unknown; error?: unknown };
}

async function drive(window: BrowserWindow, pageUrl: string): Promise<void> {
  report('ipc-channels', [...handlers.keys()]);
  report('app:info', await invoke(window, pageUrl, 'app:info'));
  report('accounts:secret-storage', await invoke(window, pageUrl, 'accounts:secret-storage'));
  report('untrusted-frame', await invoke(window, 'https://evil.example/', 'app:info'));
  const link = process.env['FAKE_OPEN_URL'];
  if (link !== undefined) {
    // The link macOS sent before ready (below), then one a second launch passes on its command line.
    report('link:take', await invoke(window, pageUrl, 'link:take'));
    appEvents.emit('second-instance', {}, ['/opt/svc-desktop/svc-desktop', `${link}/../x`], '/');
    await new Promise((resolve) => setTimeout(resolve, 0));
    report('link:take-second', await invoke(window, pageUrl, 'link:take'));
  }
  if (process.env['SVC_DEMO'] === '1') {
    for (let tries = 0; tries < 600; tries++) {
      const list = (await invoke(window, pageUrl, 'accounts:list')) as {
        value?: { accounts: { demo: boolean; state: string }[] };
      };
      const demo = list.value?.accounts.find((account) => account.demo && account.state === 'signed-in');
      if (demo) {
        report('demo-signed-in', demo);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const status = await invoke(window, pageUrl, 'sync:status');
    report('sync:status', status);
    // The computer wakes: the account catches up at once, which its sync log tells.
    powerEvents.emit('resume');
    for (let tries = 0; tries < 300; tries++) {
      const log = (await invoke(window, pageUrl, 'sync-log:query', { text: 'sync finished (woke)' })) as {
        value?: { entries: { message: string }[] };
      };
      const woke = log.value?.entries[0];
      if (woke) {
        report('woke-sync', woke.message);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  window.emit('close', { preventDefault: () => report('close-prevented') });
  app.quit();
}

// The app is "ready" once main has registered its listeners (the next turn).
setTimeout(() => {
  const link = process.env['FAKE_OPEN_URL'];
  if (link !== undefined)
    appEvents.emit('open-url', { preventDefault: () => report('open-url-handled') }, link);
  report('ready', join(app.getPath('userData')));
  readyResolve();
}, 0);

export default { app };
