/** A page of the contracts of an owner with details, as served, and what decided it. */
export interface DescribedPage {
  /** The hash of every value the page's statement read (ownerCollectionsPage): the index, verdicts, deployments, documents. */
  fingerprint: string;
  /** The block name, symbol and totalSupply were read at; undefined when the page holds no collection. */
  chainBlock?: number;
  /** When the first of its documents goes stale (ms; -Infinity when one is missing): a read from then on is not served from here. */
  refreshAt: number;
  indexed: number;
  incomplete?: true;
  /** The last contract read, when more follow. */
  next?: string[];
  json: string;
}

/**
 * Described pages by what was asked (network, owner, cursor, limit, spam filter), bounded by entries and by the
 * characters of their JSON: the least recently stored go first, and a page larger than the whole bound is not kept.
 * Nothing here decides whether a page still holds: its fingerprint is compared by the page's own statement.
 */
export class DescribedPages {
  private readonly pages = new Map<string, DescribedPage>();
  private size = 0;

  constructor(private readonly bounds: { entries: number; chars: number }) {}

  get(key: string): DescribedPage | undefined {
    return this.pages.get(key);
  }

  set(key: string, page: DescribedPage): void {
    this.delete(key);
    if (page.json.length > this.bounds.chars) return;
    this.pages.set(key, page);
    this.size += page.json.length;
    for (const [oldest] of this.pages) {
      if (this.pages.size <= this.bounds.entries && this.size <= this.bounds.chars) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.size -= page.json.length;
  }
}
