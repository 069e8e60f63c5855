// app:info and external-link:open: what the renderer may know about the app,
// and the one way out of it (an https link in the person's browser).
import { externalHttpsUrl } from '../security/page-policy';
import type { AppInfo } from './contract';
import { IpcHandlerError, type IpcHandlers } from './gate';

export interface AppHandlerDependencies {
  readonly appInfo: AppInfo;
  /** `shell.openExternal` in main. */
  readonly openExternal: (url: string) => Promise<void>;
}

export function appHandlers(dependencies: AppHandlerDependencies): IpcHandlers {
  return {
    'app:info': () => dependencies.appInfo,
    'external-link:open': async ({ url }) => {
      const target = externalHttpsUrl(url);
      if (target === null) throw new IpcHandlerError('url-refused', 'Only https links can be opened.');
      await dependencies.openExternal(target);
      return null;
    },
  };
}
