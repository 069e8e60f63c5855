// The sandboxed preload: builds `window.svc` in the page (./bridge) over the two
// IPC channels of ipc/transport, and hands the page nothing else: never
// ipcRenderer, never an IPC event object (it carries the sender).
import { contextBridge, ipcRenderer } from 'electron';
import {
  EVENT_TRANSPORT_CHANNEL,
  INVOKE_TRANSPORT_CHANNEL,
  type EventMessage,
  type InvokeRequest,
} from '../ipc/transport';
import { installSvcBridge, type InvokeInMain, type SubscribeToMain } from './bridge';

const invokeInMain: InvokeInMain = (channel, input) => {
  const request: InvokeRequest = { channel, input };
  return ipcRenderer.invoke(INVOKE_TRANSPORT_CHANNEL, request);
};

let subscribed = false;
const subscribeToMain: SubscribeToMain = (deliver) => {
  if (subscribed) return;
  subscribed = true;
  ipcRenderer.on(EVENT_TRANSPORT_CHANNEL, (_event, message: EventMessage) =>
    deliver(message.name, message.payload),
  );
};

contextBridge.executeInMainWorld({ func: installSvcBridge, args: [invokeInMain, subscribeToMain] });
