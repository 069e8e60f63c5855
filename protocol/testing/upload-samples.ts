// Files the upload rules judge by their bytes, written here once for the
// tests of the rules, the emulator and the app that all meet them.

/** The head of a Windows executable: `MZ`, and at 0x3c the offset of its `PE\0\0` header. */
export function windowsExecutable(): Uint8Array {
  const bytes = new Uint8Array(256);
  bytes.set([0x4d, 0x5a]);
  new DataView(bytes.buffer).setUint32(0x3c, 0x80, true);
  bytes.set([0x50, 0x45, 0, 0], 0x80);
  return bytes;
}
