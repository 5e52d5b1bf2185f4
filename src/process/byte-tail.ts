// Keeps only the last bytes of a stream, so a chatty stderr costs bounded memory.

export class ByteTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private bytesSeen = 0;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    this.bytesSeen += chunk.length;
    if (this.limitBytes <= 0 || chunk.length === 0) return;
    if (chunk.length >= this.limitBytes) {
      // Copy, so the kept slice does not pin the whole (possibly large) chunk.
      this.chunks = [Buffer.from(chunk.subarray(chunk.length - this.limitBytes))];
      this.size = this.limitBytes;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= this.limitBytes) {
      this.size -= this.chunks[0].length;
      this.chunks.shift();
    }
  }

  /** The kept bytes as UTF-8; when the front was cut off, from the first whole character. */
  text(): string {
    const all = Buffer.concat(this.chunks, this.size);
    const kept = all.subarray(Math.max(0, all.length - this.limitBytes));
    const wasCut = this.bytesSeen > kept.length;
    return kept.subarray(wasCut ? continuationBytesAtStart(kept) : 0).toString("utf8");
  }
}

/** UTF-8 continuation bytes look like 10xxxxxx; a character has at most three of them. */
function continuationBytesAtStart(bytes: Buffer): number {
  let count = 0;
  while (count < 3 && count < bytes.length && (bytes[count] & 0xc0) === 0x80) count++;
  return count;
}
