// Sizes in the units people read, for an attachment and for the space the
// attachments take on this computer.

/** A size in the units people read: bytes, KB, MB, GB (1024 each). */
export function sizeWords(bytes: number | null): string {
  if (bytes === null) return 'size unknown';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** "10.5 of 25 MB": a part of a size, both in the whole's unit, at most one decimal. */
export function partOfSizeWords(part: number, whole: number): string {
  const [unit, scale] =
    whole < 1024
      ? ['B', 1]
      : whole < 1024 * 1024
        ? ['KB', 1024]
        : whole < 1024 ** 3
          ? ['MB', 1024 * 1024]
          : ['GB', 1024 ** 3];
  const amount = (bytes: number) => String(Number((bytes / scale).toFixed(scale === 1 ? 0 : 1)));
  return `${amount(part)} of ${amount(whole)} ${unit}`;
}
