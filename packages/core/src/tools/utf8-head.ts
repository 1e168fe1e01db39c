/**
 * Cuts text to at most a number of UTF-8 bytes without splitting a character, so a capped
 * result never ends in a replacement character.
 */
export const utf8Head = (text: string, maxBytes: number): string => {
  if (text.length <= maxBytes / 3 || Buffer.byteLength(text) <= maxBytes) return text;
  const bytes = Buffer.from(text, "utf8");
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
};
