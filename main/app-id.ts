// The app's identity on the OS (Windows notifications, macOS bundle id); it must
// equal `appId` in electron-builder.yml, which main/packaging.test.ts checks.
export const APP_ID = 'com.svc.desktop';
