// The tray icon and its menu, drawn from the tray model (services/notify/tray-model.ts):
// this file only turns the model into Electron's Tray, Menu and image.
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { TrayAction, TrayIconVariant, TrayModel } from '../../services/notify/tray-model';
import { trayIconBitmap } from './tray-icon-bitmap';

/** Drawn at 32 px for 16 pt: sharp on high-density screens, scaled down elsewhere. */
const ICON_PIXELS = 32;

export interface AppTray {
  update(model: TrayModel): void;
  destroy(): void;
}

export function createAppTray(initial: TrayModel, onAction: (action: TrayAction) => void): AppTray {
  const images = new Map<TrayIconVariant, Electron.NativeImage>();
  const imageOf = (variant: TrayIconVariant) => {
    let image = images.get(variant);
    if (!image) {
      image = nativeImage.createFromBitmap(trayIconBitmap(variant, ICON_PIXELS), {
        width: ICON_PIXELS,
        height: ICON_PIXELS,
        scaleFactor: 2,
      });
      images.set(variant, image);
    }
    return image;
  };
  const tray = new Tray(imageOf(initial.icon));
  let shownIcon = initial.icon;
  const apply = (model: TrayModel) => {
    if (model.icon !== shownIcon) {
      tray.setImage(imageOf(model.icon));
      shownIcon = model.icon;
    }
    tray.setToolTip(model.tooltip);
    const items: MenuItemConstructorOptions[] = model.menu.map((item) =>
      item.kind === 'separator'
        ? { type: 'separator' }
        : { label: item.label, enabled: item.enabled, click: () => onAction(item.action) },
    );
    tray.setContextMenu(Menu.buildFromTemplate(items));
  };
  apply(initial);
  // Windows and Linux open the window on a click of the icon; macOS shows the menu.
  tray.on('click', () => {
    if (process.platform !== 'darwin') onAction({ type: 'open', accountId: null });
  });
  return {
    update: apply,
    destroy: () => tray.destroy(),
  };
}
