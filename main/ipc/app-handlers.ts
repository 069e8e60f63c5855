// app:info and external-link:open: what the renderer may know about the app,
// and the one way out of it (a page of a signed-in server, in the person's browser).
import { openableLink } from '../security/page-policy';
import type { AppInfo } from '../../ipc/contract';
import { IpcHandlerError, type IpcHandlers } from './gate';

export interface AppHandlerDependencies {
  readonly appInfo: AppInfo;
  /** `shell.openExternal` in main. */
  readonly openExternal: (url: string) => Promise<void>;
  /** The origins links may open: the signed-in servers' (page-policy openableLink). */
  readonly linkOrigins: () => readonly string[];
}

export function appHandlers(dependencies: AppHandlerDependencies): IpcHandlers {
  return {
    'app:info': () => dependencies.appInfo,
    'external-link:open': async ({ url }) => {
      const target = openableLink(url, dependencies.linkOrigins());
      if (target === null) {
        throw new IpcHandlerError(
          'url-refused',
          'Only pages of a server you signed in to can be opened from the app.',
        );
      }
      await dependencies.openExternal(target);
      return null;
    },
  };
}
