// What each turn of a window was sent with besides its words (files, folders, a selection, images), for its Retry to
// send the same. Files and selections are small and kept for every turn; images may be megabytes, so the turns keep
// one prompt's worth of them at most, the newest turns' first.
import { isImage, type PromptPart } from "../protocol/prompt-parts";

export interface KeptParts {
  parts: readonly PromptPart[];
  /** The turn had images that newer turns' images pushed out. */
  imagesDropped: boolean;
}

export class TurnParts {
  private readonly byTurn = new Map<number, KeptParts>();
  /** Turns whose images are kept, oldest first, with their size. */
  private readonly withImages: { turnId: number; chars: number }[] = [];
  private imageChars = 0;

  constructor(private readonly maxImageChars: number) {}

  keep(turnId: number, parts: readonly PromptPart[]): void {
    this.byTurn.set(turnId, { parts, imagesDropped: false });
    const chars = parts.reduce((sum, part) => sum + (isImage(part) ? part.data.length : 0), 0);
    if (chars === 0) return;
    this.withImages.push({ turnId, chars });
    this.imageChars += chars;
    while (this.imageChars > this.maxImageChars && this.withImages.length > 1) {
      const oldest = this.withImages.shift();
      if (oldest === undefined) break;
      this.imageChars -= oldest.chars;
      const kept = this.byTurn.get(oldest.turnId);
      if (kept !== undefined) this.byTurn.set(oldest.turnId, { parts: kept.parts.filter((part) => !isImage(part)), imagesDropped: true });
    }
  }

  /** The turn's parts as kept, or undefined when it was sent with none (or before this window). */
  of(turnId: number): KeptParts | undefined {
    return this.byTurn.get(turnId);
  }
}
