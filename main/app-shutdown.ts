// Quitting cleanly: the first quit is held back until the services closed
// (engines stopped, pull workers ended, mirrors and sync logs closed), then
// quit goes through. No Electron here: main/index.ts gives it `before-quit`.

export interface QuitEventLike {
  preventDefault(): void;
}

export interface AppShutdown {
  /** The `before-quit` listener. */
  beforeQuit(event: QuitEventLike): void;
  /** True from the first quit on: windows close for real instead of hiding in the tray. */
  quitting(): boolean;
}

export function appShutdown(options: {
  /** Closes the services; a failure must not keep the app from quitting. */
  close: () => Promise<void>;
  /** `app.quit()`: called once `close` settled. */
  quit: () => void;
  onCloseError?: (error: unknown) => void;
}): AppShutdown {
  let state: 'running' | 'closing' | 'closed' = 'running';
  return {
    beforeQuit(event) {
      if (state === 'closed') return;
      event.preventDefault();
      if (state === 'closing') return;
      state = 'closing';
      options
        .close()
        .catch((error: unknown) => options.onCloseError?.(error))
        .finally(() => {
          state = 'closed';
          options.quit();
        });
    },
    quitting: () => state !== 'running',
  };
}
