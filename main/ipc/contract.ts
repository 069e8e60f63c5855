// THE IPC contract: every call (renderer → main) and event (main → renderer),
// declared once with zod schemas. Main validates against it; the renderer's
// `window.svc` type is derived from it (import it with `import type` only).
//
// Adding a call: one entry in `invokeChannels` here, one handler in a handler
// map registered with the gate (main/ipc/gate.ts). Names are `resource:verb`.
import { z } from 'zod';

/** Theme preference: `system` follows the OS (the default). */
export const themePreferenceSchema = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof themePreferenceSchema>;

/** The preferences the renderer may read and change (window geometry stays in main). */
export const rendererSettingsSchema = z.object({
  theme: themePreferenceSchema,
});
export type RendererSettings = z.infer<typeof rendererSettingsSchema>;

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** `process.platform` of main: `darwin`, `win32` or `linux` on the platforms we ship. */
  platform: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

const noInput = z.undefined();

export const invokeChannels = {
  'app:info': { input: noInput, output: appInfoSchema },
  'settings:get': { input: noInput, output: rendererSettingsSchema },
  /** Changes the given preferences; answers all of them and emits `settings:changed`. */
  'settings:set': { input: rendererSettingsSchema.partial().strict(), output: rendererSettingsSchema },
  /** Opens an https link the person clicked in their browser; other schemes are refused (`url-refused`). */
  'external-link:open': { input: z.strictObject({ url: z.string().max(8192) }), output: z.null() },
} satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const eventChannels = {
  'settings:changed': rendererSettingsSchema,
} satisfies Record<string, z.ZodType>;

export type InvokeChannel = keyof typeof invokeChannels;
export type EventName = keyof typeof eventChannels;

/** What the renderer passes. */
export type InvokeInput<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['input']>;
/** What the renderer receives. */
export type InvokeOutput<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['output']>;
/** What a handler in main receives (the parsed input). */
export type HandlerInput<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['input']>;
/** What a handler in main returns (parsed by the output schema before it leaves). */
export type HandlerOutput<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['output']>;
/** What main passes to `emit`. */
export type EventPayloadInput<E extends EventName> = z.input<(typeof eventChannels)[E]>;
/** What a renderer listener receives. */
export type EventPayload<E extends EventName> = z.output<(typeof eventChannels)[E]>;

/** Channels whose input may be left out are called as `invoke('app:info')`. */
export type InvokeArgs<C extends InvokeChannel> =
  undefined extends InvokeInput<C> ? [input?: InvokeInput<C>] : [input: InvokeInput<C>];

/**
 * The error `invoke` rejects with when main answers `{ok: false}`. Branch on
 * `type` (a `GateErrorType` from ./transport, or the handler's own type, such
 * as `url-refused`); `message` is the human text.
 */
export interface BridgeError extends Error {
  readonly name: 'BridgeError';
  readonly type: string;
  /** The channel that was called. */
  readonly channel: string;
}

/** `window.svc`: the only thing the preload puts on the page. */
export interface SvcBridge {
  invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<InvokeOutput<C>>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function isInvokeChannel(name: string): name is InvokeChannel {
  return Object.hasOwn(invokeChannels, name);
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventChannels, name);
}
