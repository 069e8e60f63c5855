// electron-updater's own updater run in plain Node: its provider, feed parsing,
// version comparison, download, sha512 verification and download cache are
// the real ones; only what needs the Electron runtime is replaced (the app
// adapter, and electron.net by node:http, through builder-util-runtime's
// HttpExecutor, whose download pipeline verifies the checksum).
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  type DownloadOptions,
  HttpExecutor,
} from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';

/** electron-updater's ElectronHttpExecutor with node:http in place of electron.net. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? {} };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          // fs's close callback passes undefined, not null, when all went well.
          callback: (error: Error | null | undefined) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }

  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }
}

export interface NodeUpdaterOptions {
  /** The version this "app" runs. */
  readonly version: string;
  /** Where app-update.yml and the download cache go. */
  readonly dir: string;
  /** The feed (a generic provider's `url`). */
  readonly feedUrl: string;
  /** Which platform's channel file the provider asks for (default: this one's). */
  readonly platform?: 'linux' | 'darwin' | 'win32';
}

/** The Linux .deb updater (a plain full download, as the app's deb install uses) of an "installed" app. */
export function nodeAppUpdater(options: NodeUpdaterOptions): DebUpdater {
  const updateConfigPath = join(options.dir, 'app-update.yml');
  mkdirSync(options.dir, { recursive: true });
  // electron-builder writes this beside the app from electron-builder.yml's publish.
  writeFileSync(
    updateConfigPath,
    `provider: generic\nurl: ${options.feedUrl}\nupdaterCacheDirName: svc-desktop-updater\n`,
  );
  const updater = new DebUpdater(null, {
    version: options.version,
    name: 'svc-desktop',
    isPackaged: true,
    appUpdateConfigPath: updateConfigPath,
    userDataPath: join(options.dir, 'user-data'),
    baseCachePath: join(options.dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  });
  const internals = updater as unknown as {
    httpExecutor: HttpExecutor<ClientRequest>;
    _testOnlyOptions: { platform: string; isUseDifferentialDownload: boolean } | null;
  };
  internals.httpExecutor = new NodeHttpExecutor();
  if (options.platform !== undefined) {
    // electron-updater's own test hook: which channel file (latest.yml, latest-mac.yml, …) to ask for.
    internals._testOnlyOptions = { platform: options.platform, isUseDifferentialDownload: false };
  }
  updater.logger = null;
  return updater;
}

/** Where the updater keeps a verified download until it is installed. */
export function pendingDownloadDir(dir: string): string {
  return join(dir, 'cache', 'svc-desktop-updater', 'pending');
}
