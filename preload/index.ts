// The bridge between the sandboxed renderer and main.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('svc', { version: 1 });
